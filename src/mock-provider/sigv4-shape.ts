/**
 * What the mock checks of a cloud-platform request's authorization: a Bedrock API key
 * as a bearer token, or a SigV4 signature of the right shape (algorithm, credential
 * scope for the bedrock service, signed headers, x-amz-date) whose declared content
 * hash is the body's. It does not hold the secret, so it checks shape, not validity.
 */
const SIGV4 =
  /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([a-z0-9-]+)\/bedrock\/aws4_request, SignedHeaders=([a-z0-9;-]+), Signature=([0-9a-f]{64})$/;

export function sigV4Problem(request: Request, body: string): string | null {
  const auth = request.headers.get("authorization") ?? "";
  if (/^Bearer \S+$/.test(auth)) return null;
  const m = SIGV4.exec(auth);
  if (!m) return "authorization is neither a bearer token nor an AWS4-HMAC-SHA256 signature for bedrock";
  const amzDate = request.headers.get("x-amz-date") ?? "";
  if (!/^\d{8}T\d{6}Z$/.test(amzDate) || !amzDate.startsWith(m[2] as string))
    return "x-amz-date is missing or does not match the credential scope";
  const signed = (m[4] as string).split(";");
  for (const h of ["host", "x-amz-date", "x-amz-content-sha256"]) if (!signed.includes(h)) return `${h} is not among the signed headers`;
  const declared = request.headers.get("x-amz-content-sha256");
  const actual = new Bun.CryptoHasher("sha256").update(body).digest("hex");
  if (declared !== actual) return "x-amz-content-sha256 is not the hash of the body";
  return null;
}
