/** Wait before the next attempt after `attempts` failed ones: 1 minute, doubling, at most an hour (never giving up). */
export function sealRetryDelay(attempts: number): number {
  return Math.min(60_000 * 2 ** Math.max(0, attempts - 1), 60 * 60_000);
}
