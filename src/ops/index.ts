/** Every gateway operation, registered once. New categories add their module here. */
import { aiOperations } from "./ai-ops.ts";
import { mcpOperations } from "./mcp-ops.ts";
import { metricsOperations } from "./metrics-ops.ts";
import { notificationOperations } from "./notification-ops.ts";
import { orgAdminOperations } from "./org-admin-ops.ts";
import { orgKeyOperations } from "./org-key-ops.ts";
import { orgMemberOperations } from "./org-member-ops.ts";
import { OperationRegistry } from "./registry.ts";
import { providerOperations } from "./provider-ops.ts";
import { routeOperations } from "./route-ops.ts";
import { providerTestOperations } from "./provider-test-ops.ts";
import { sessionOperations } from "./session-ops.ts";
import { usageOperations } from "./usage-ops.ts";
import { userOperations } from "./user-ops.ts";

export function createOperationRegistry(): OperationRegistry {
  return new OperationRegistry().register(
    ...userOperations,
    ...orgKeyOperations,
    ...orgMemberOperations,
    ...orgAdminOperations,
    ...sessionOperations,
    ...usageOperations,
    ...providerOperations,
    ...providerTestOperations,
    ...aiOperations,
    ...routeOperations,
    ...metricsOperations,
    ...notificationOperations,
    ...mcpOperations,
  );
}
