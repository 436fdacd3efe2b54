/** The dashboard's pages and their paths under /dashboard (the server serves the app shell at each). */
export const PAGES = [
  { path: "", title: "Overview" },
  { path: "providers", title: "Providers" },
  { path: "keys", title: "Service accounts and keys" },
  { path: "usage", title: "Usage and cost" },
  { path: "routing", title: "Routing playground" },
  { path: "mcp", title: "MCP tool servers" },
  { path: "notifications", title: "Notifications" },
  { path: "audit", title: "Audit log" },
  { path: "members", title: "Members and roles" },
  { path: "preferences", title: "Preferences" },
] as const;

export type PagePath = (typeof PAGES)[number]["path"];
