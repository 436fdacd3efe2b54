/**
 * The mock's error answers in each vendor's own envelope, so the gateway is tested
 * against what a real failure looks like. The messages vendor: `{"type":"error","error":
 * {"type","message"},"request_id"}` with the type its status stands for (the
 * `ErrorObject` union of anthropics/anthropic-sdk-typescript, src/resources/shared.ts;
 * 529 is `overloaded_error`). The cloud platform: `{"message"}` with the exception's name
 * in `x-amzn-ErrorType`, which the AWS SDK reads the error's name from
 * (aws/aws-sdk-js-v3, clients/client-bedrock-runtime/src/protocols/Aws_restJson1.ts,
 * `de_CommandError`; statuses from the InvokeModel API reference's Errors section).
 */

const MESSAGES_TYPE: Readonly<Record<number, string>> = {
  400: "invalid_request_error",
  401: "authentication_error",
  402: "billing_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  504: "timeout_error",
  529: "overloaded_error",
};

export function messagesError(status: number, message: string): Response {
  const type = MESSAGES_TYPE[status] ?? (status >= 500 ? "api_error" : "invalid_request_error");
  const requestId = `req_mock${crypto.randomUUID().replaceAll("-", "").slice(0, 20)}`;
  return Response.json(
    { type: "error", error: { type, message }, request_id: requestId },
    { status, headers: { "request-id": requestId } },
  );
}

/** The platform's exception for each status InvokeModel answers with. */
const PLATFORM_EXCEPTION: Readonly<Record<number, string>> = {
  400: "ValidationException",
  403: "AccessDeniedException",
  404: "ResourceNotFoundException",
  408: "ModelTimeoutException",
  424: "ModelErrorException",
  429: "ThrottlingException",
  500: "InternalServerException",
  503: "ServiceUnavailableException",
};

/** A platform error; `exception` names it where the status alone does not (a signature refused is 403 too). */
export function platformError(status: number, message: string, exception?: string): Response {
  const name = exception ?? PLATFORM_EXCEPTION[status] ?? (status >= 500 ? "InternalServerException" : "ValidationException");
  return Response.json(
    { message },
    {
      status,
      headers: {
        "x-amzn-errortype": `${name}:http://internal.amazon.com/coral/com.amazon.bedrock/`,
        "x-amzn-requestid": crypto.randomUUID(),
      },
    },
  );
}
