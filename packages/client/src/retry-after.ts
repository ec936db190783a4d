/** The longest `Retry-After` that is read as given; a longer one is read as this. */
export const MAX_RETRY_AFTER_MS = 3_600_000;

const DAY = "(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)";
const MONTH = "(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)";
// RFC 9110's HTTP-date: IMF-fixdate, and the obsolete RFC 850 and asctime forms it still accepts.
const HTTP_DATE = new RegExp(
  `^(?:${DAY}, \\d{2} ${MONTH} \\d{4} \\d{2}:\\d{2}:\\d{2} GMT|[A-Z][a-z]+day, \\d{2}-${MONTH}-\\d{2} \\d{2}:\\d{2}:\\d{2} GMT|${DAY} ${MONTH} [ \\d]\\d \\d{2}:\\d{2}:\\d{2} \\d{4})$`,
);

/**
 * `Retry-After` in ms: delay-seconds or an HTTP date (read against the response's own `Date`, else
 * `now`), at most {@link MAX_RETRY_AFTER_MS}; `undefined` when absent or unreadable (`-5`, `1.5`,
 * `7, 8`): what the server meant cannot be known, so each caller says what it falls back to. Any run
 * of digits counts, so a longer wait asked for never reads as a shorter one.
 */
export function retryAfterMs(response: Response, now: number): number | undefined {
  const value = response.headers.get("Retry-After")?.trim() ?? "";
  let wait: number;
  if (/^\d+$/.test(value)) {
    wait = Number(value) * 1000;
  } else if (HTTP_DATE.test(value)) {
    const date = response.headers.get("Date") ?? "";
    wait = Date.parse(value) - (HTTP_DATE.test(date) ? Date.parse(date) : now);
  } else {
    return undefined;
  }
  return Math.min(Math.max(wait, 0), MAX_RETRY_AFTER_MS);
}
