/**
 * How a typed signature looks on screen: a handwriting-like face where the system has one, then fonts with
 * wide script coverage so Cyrillic, CJK, Arabic and other names render with real glyphs (no font download;
 * the browser falls back per character). The sealed PDF embeds its own font; this is the screen only.
 */
export const HANDWRITING_FONT =
  '"Segoe Script", "Bradley Hand", "Snell Roundhand", "Brush Script MT", "URW Chancery L", "Noto Sans", "Noto Sans CJK SC", "Noto Naskh Arabic", cursive, sans-serif';
