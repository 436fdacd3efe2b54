/**
 * The platform's stream exceptions as the messages format's error types. An exception
 * frame (`:message-type: exception`) names its member of the ResponseStream union in
 * `:exception-type` (lower camel case) and carries `{"message": ...}` as its payload
 * (aws/aws-sdk-js-v3, clients/client-bedrock-runtime/src/protocols/Aws_restJson1.ts,
 * `de_ResponseStream`). Each is written as the error type the vendor uses for the same
 * failure, so the call is recorded with the right status (wire-format.ts, STATUS_OF): a
 * throttled stream is a rate limit (429), not a broken provider (502); a model that timed
 * out is the provider's timeout (`timeout_error`, 504 `provider_timeout`), as the same
 * exception answered whole (`ModelTimeoutException`, HTTP 408) is (upstream.ts, `providerFailure`);
 * a model's own failure mid-stream (`modelStreamErrorException`, HTTP 424 whole) is a 502.
 */

/** Exception member -> messages error type; an exception not listed is the vendor's `api_error`. */
const ERROR_TYPE: Readonly<Record<string, string>> = Object.assign(Object.create(null), {
  throttlingException: "rate_limit_error",
  validationException: "invalid_request_error",
  serviceUnavailableException: "overloaded_error",
  modelTimeoutException: "timeout_error",
  internalServerException: "api_error",
  modelStreamErrorException: "api_error",
});

export function streamErrorType(exception: string): string {
  return ERROR_TYPE[exception] ?? "api_error";
}

/** The exception's message: the payload's `message` (AWS also writes `Message`), else its text as is. */
export function exceptionMessage(payload: string): string {
  try {
    const body = JSON.parse(payload) as { message?: unknown; Message?: unknown } | null;
    const message = body?.message ?? body?.Message;
    if (typeof message === "string") return message;
  } catch {
    // not JSON: the text itself
  }
  return payload;
}
