/**
 * The provider endpoints the official clients can call that the gateway deliberately does
 * not offer, each with the reason and what to do instead: what a 404 on such a path says,
 * in the client's own envelope, instead of a bare "no route".
 */

interface Unoffered {
  /** The path, or the prefix of the paths under it (`/v1/files` covers `/v1/files/{id}/content`). */
  readonly prefix: string;
  readonly message: string;
}

// A batch or a stored object is answered later, by a retrieval the gateway never sees:
// it could be neither scanned nor held against a spend cap nor charged.
const LATER = "is answered later, outside the gateway's scanning, spend caps and charging";

const UNOFFERED: readonly Unoffered[] = [
  {
    prefix: "/v1/messages/batches",
    message: `Message batches are not offered by this gateway: a batch ${LATER}. Send each request to POST /v1/messages.`,
  },
  {
    prefix: "/v1/batches",
    message: `The Batch API is not offered by this gateway: a batch ${LATER}. Send each request to its endpoint (POST /v1/chat/completions, /v1/responses, /v1/embeddings).`,
  },
  {
    prefix: "/v1/files",
    message:
      "File uploads are not offered by this gateway (they serve batches and assistants, which it does not offer). Send file content inline in the request.",
  },
  {
    prefix: "/v1/responses/",
    message:
      "Stored responses cannot be retrieved, listed, cancelled or deleted through this gateway: keep the response the create call returned, and continue a conversation with previous_response_id on POST /v1/responses.",
  },
  {
    prefix: "/v1/chat/completions/",
    message:
      "Stored chat completions cannot be retrieved, listed, updated or deleted through this gateway: keep the completion the create call returned.",
  },
  {
    prefix: "/v1/conversations",
    message:
      "Conversation objects are not offered by this gateway: they live at the provider, outside the gateway's scanning. Send the conversation in input, or continue with previous_response_id on POST /v1/responses.",
  },
  {
    prefix: "/v1/completions",
    message: "The legacy completions endpoint is not offered by this gateway: use POST /v1/chat/completions.",
  },
  ...["/v1/assistants", "/v1/threads", "/v1/vector_stores"].map((prefix) => ({
    prefix,
    message: `The Assistants API is not offered by this gateway: a run ${LATER}. Use POST /v1/responses or /v1/chat/completions.`,
  })),
  ...["/v1/images", "/v1/audio", "/v1/moderations", "/v1/fine_tuning", "/v1/realtime", "/v1/uploads"].map((prefix) => ({
    prefix,
    message: `${prefix} is not offered by this gateway: it serves chat completions, responses, messages, embeddings and models.`,
  })),
];

/** Why a path the gateway has no route for is not offered, or null for a path no client is known to call. */
export function unofferedEndpoint(path: string): string | null {
  const p = path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
  for (const u of UNOFFERED) {
    if (u.prefix.endsWith("/") ? p.startsWith(u.prefix) : p === u.prefix || p.startsWith(`${u.prefix}/`)) return u.message;
  }
  return null;
}
