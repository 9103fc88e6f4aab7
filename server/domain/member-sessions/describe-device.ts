/**
 * A User-Agent as people name their device: "Firefox on Windows", "Safari on iPhone". Only the browsers and
 * systems people sign in with are told apart; anything else is "An unknown browser" (the Account page shows the
 * address beside it). The raw header is kept in the row, never trusted for anything but this description.
 */
const BROWSERS: [RegExp, string][] = [
  [/\bEdgA?\/|\bEdgiOS\//, "Edge"],
  [/\bOPR\/|\bOpera\b/, "Opera"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  [/\bFirefox\/|\bFxiOS\//, "Firefox"],
  [/\bHeadlessChrome\//, "Headless Chrome"],
  [/\bChrome\/|\bCriOS\/|\bChromium\//, "Chrome"],
  [/\bVersion\/[\d.]+.*\bSafari\//, "Safari"],
];

const SYSTEMS: [RegExp, string][] = [
  [/\biPhone\b/, "iPhone"],
  [/\biPad\b/, "iPad"],
  [/\bAndroid\b/, "Android"],
  [/\bWindows\b/, "Windows"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bMac OS X\b|\bMacintosh\b/, "macOS"],
  [/\bLinux\b/, "Linux"],
];

/** What a User-Agent naming no known browser or system is called (also for a stored event without a device). */
export const UNKNOWN_DEVICE = "An unknown browser";

const first = (rules: [RegExp, string][], ua: string) => rules.find(([pattern]) => pattern.test(ua))?.[1] ?? null;

export function describeDevice(userAgent: string | null): string {
  const ua = userAgent ?? "";
  const browser = first(BROWSERS, ua);
  const system = first(SYSTEMS, ua);
  if (browser && system) return `${browser} on ${system}`;
  if (browser) return browser;
  if (system) return `A browser on ${system}`;
  return UNKNOWN_DEVICE;
}
