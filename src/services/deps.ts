/** What the services need from the runtime; a narrow slice so tests can build it cheaply. */
import type { ApiKeyHasher } from "../domain/api-key.ts";
import type { Store } from "../store/store.ts";

export interface ServiceDeps {
  store: Store;
  hasher: ApiKeyHasher;
  /** Called when a key record changes, so every cache (every node's, once it resolves) drops it before the next request. */
  onKeyChanged: (keyHash: string) => void | Promise<void>;
  /** Called when an organization's preferences change, so policy reads them fresh. */
  onPreferencesChanged: (orgId: string) => void | Promise<void>;
  now: () => number;
}
