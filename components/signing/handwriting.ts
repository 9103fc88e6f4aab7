// Caveat (SIL Open Font License 1.1, @fontsource/caveat), self-hosted with the app: its four script files load only
// when a typed value needs them (unicode-range).
import "@fontsource/caveat/400.css";

/**
 * How a typed signature looks on screen: Caveat, the handwriting face the sealed PDF draws it with
 * (server/pdf/handwriting-font.ts), for the scripts it has (Latin, Latin Extended, Cyrillic); then fonts with
 * wide script coverage so CJK, Arabic and other names render with real glyphs (the browser falls back per
 * character; the PDF draws a name with any character outside Caveat wholly in Noto).
 */
export const HANDWRITING_FONT = '"Caveat", "Segoe Script", "Bradley Hand", "Noto Sans", "Noto Sans CJK SC", "Noto Naskh Arabic", cursive, sans-serif';
