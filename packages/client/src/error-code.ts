/**
 * The platform's error codes: dotted lower-case words (`access.denied.exception`), at most 80
 * characters. Only a code of this shape is quoted in a message; anything else in an error body may
 * echo what the call sent.
 */
const PLATFORM_ERROR_CODE = /^(?=.{1,80}$)[a-z][a-z0-9]{0,30}(?:[._][a-z0-9]{1,30}){1,6}$/;

/**
 * `errorCode` when it is safe to quote in a message or a log: shaped like the platform's codes and
 * holding no credential the call carried, nor held by one (a server may echo what it was sent, and a
 * short credential could pass for a code). Credentials shorter than 4 characters are not compared.
 */
export function quotableErrorCode(
  errorCode: unknown,
  credentials: readonly string[] = [],
): string | undefined {
  if (typeof errorCode !== "string" || !PLATFORM_ERROR_CODE.test(errorCode)) {
    return undefined;
  }
  return credentials.some(
    (secret) => secret.length >= 4 && (errorCode.includes(secret) || secret.includes(errorCode)),
  )
    ? undefined
    : errorCode;
}
