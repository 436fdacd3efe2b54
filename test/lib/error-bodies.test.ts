import { describe, expect, test } from "bun:test";
import { errorBody, surfaceForPath } from "../../src/lib/error-bodies.ts";
import { ApiError } from "../../src/lib/errors.ts";

const limited = new ApiError(429, "rate_limit_exceeded", "slow down", {
  details: { limit: 10, remaining: 0, resetAt: "2026-01-01T00:00:00.000Z" },
});

describe("error envelopes", () => {
  test("paths choose their surface", () => {
    expect(surfaceForPath("/v1/chat/completions")).toBe("openai");
    expect(surfaceForPath("/v1/embeddings")).toBe("openai");
    expect(surfaceForPath("/v1/models")).toBe("openai");
    expect(surfaceForPath("/v1/messages")).toBe("messages");
    expect(surfaceForPath("/api/v1/gateway")).toBe("gateway");
    expect(surfaceForPath("/api/byok/analytics/budget")).toBe("general");
    expect(surfaceForPath("/nowhere")).toBe("general");
  });

  test("chat-completions envelope", () => {
    expect(errorBody("openai", new ApiError(400, "invalid_request", "bad", { param: "messages" }))).toEqual({
      error: { message: "bad", type: "invalid_request_error", code: "invalid_request", param: "messages" },
    });
    expect((errorBody("openai", limited) as any).error.type).toBe("rate_limit_error");
    expect((errorBody("openai", limited) as any).error.details.limit).toBe(10);
  });

  test("messages envelope derives error.type from the status", () => {
    const cases: [number, string][] = [
      [400, "invalid_request_error"],
      [401, "authentication_error"],
      [403, "permission_error"],
      [404, "not_found_error"],
      [429, "rate_limit_error"],
      [500, "api_error"],
      [502, "api_error"],
    ];
    for (const [status, type] of cases) {
      const body = errorBody("messages", new ApiError(status, "invalid_request", "m")) as any;
      expect(body.type).toBe("error");
      expect(body.error.type).toBe(type);
      expect(body.error.message).toBe("m");
    }
  });

  test("general and gateway envelopes", () => {
    expect(errorBody("general", limited)).toEqual({
      error: {
        code: "rate_limit_exceeded",
        message: "slow down",
        details: { limit: 10, remaining: 0, resetAt: "2026-01-01T00:00:00.000Z" },
      },
    });
    expect(errorBody("gateway", new ApiError(403, "forbidden", "no"))).toEqual({
      success: false,
      data: null,
      error: "no",
      code: "forbidden",
    });
  });
});
