/**
 * A URL fit for a log line, an audit entry or a page: its user:password (sent as basic auth, e.g. to a
 * time-stamping authority) replaced by `***`, and anything that is not a URL left out entirely.
 */
export function redactUrl(value: string): string {
  try {
    const url = new URL(value);
    if (url.username || url.password) {
      url.username = "***";
      url.password = "";
    }
    return url.toString();
  } catch {
    return "(not a URL)";
  }
}

/** Any `scheme://user:password@` inside a free text (an error message naming a URL) with the credentials replaced. */
export function redactCredentials(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^\s/@]+@/gi, "$1***@");
}
