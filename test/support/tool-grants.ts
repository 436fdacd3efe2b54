/**
 * Tool grants for tests that need one without a model call to carry it: sealed with the
 * gateway's own key, read from its data directory, by the gateway's own code, exactly
 * as the gateway issues them for a Responses `mcp` tool naming a configured server.
 */
import { ApiKeyHasher } from "../../src/domain/api-key.ts";
import type { Identity } from "../../src/domain/identity.ts";
import { MasterKey } from "../../src/lib/master-key.ts";
import { SecretBox } from "../../src/lib/secret-box.ts";
import { ToolGrantTokens } from "../../src/services/tool-grant-tokens.ts";

export function mintToolGrant(opts: {
  dataDir: string;
  /** The gateway key the grant stands for. */
  key: string;
  orgId: string;
  server: { id: string; name: string };
  tools?: string[] | null;
}): string {
  const master = MasterKey.load(null, opts.dataDir);
  const keyHash = new ApiKeyHasher(master.derive("api-key-hash")).hash(opts.key);
  // issue() reads only who holds the grant: the key's hash and its organization.
  const holder = { kind: "serviceAccount", key: { keyHash }, organization: { id: opts.orgId } } as unknown as Identity;
  return new ToolGrantTokens(new SecretBox(master.derive("tool-grant")), Date.now).issue(
    holder,
    opts.server,
    opts.tools ?? null,
    "test-minted",
  );
}
