/** The dashboard: who is signed in, the navigation, and the current page. */
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { op } from "./api.ts";
import { Async, useLoad } from "./components.tsx";
import { Audit } from "./pages/audit.tsx";
import { McpServers } from "./pages/mcp.tsx";
import { Members } from "./pages/members.tsx";
import { Notifications } from "./pages/notifications.tsx";
import { Overview } from "./pages/overview.tsx";
import { Preferences } from "./pages/preferences.tsx";
import { Providers } from "./pages/providers.tsx";
import { Routing } from "./pages/routing.tsx";
import { ServiceAccounts } from "./pages/service-accounts.tsx";
import { Usage } from "./pages/usage.tsx";
import { PAGES, type PagePath } from "./pages.ts";
import { RenderGuard } from "./render-guard.tsx";
import type { Viewer } from "./side.tsx";
import type { Me } from "./types.ts";

/** How often an active tab renews the session cookie (the server's idle limit is 24 hours). */
const KEEPALIVE_MS = 10 * 60 * 1000;

const pathOf = (): PagePath => {
  const rest = location.pathname.replace(/^\/dashboard\/?/, "").replace(/\/$/, "");
  return (PAGES.find((p) => p.path === rest)?.path ?? "") as PagePath;
};

function App() {
  const [me, retry] = useLoad(() => op<Me>("user.me"));
  const [page, setPage] = useState<PagePath>(pathOf());
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => {
    const onPop = () => setPage(pathOf());
    addEventListener("popstate", onPop);
    // Activity keeps the session alive: a renewal at most every KEEPALIVE_MS while the user works.
    let last = Date.now();
    const onActivity = () => {
      if (Date.now() - last < KEEPALIVE_MS) return;
      last = Date.now();
      void fetch("/dashboard/keepalive", { method: "POST", credentials: "same-origin" });
    };
    addEventListener("keydown", onActivity);
    addEventListener("pointerdown", onActivity);
    return () => {
      removeEventListener("popstate", onPop);
      removeEventListener("keydown", onActivity);
      removeEventListener("pointerdown", onActivity);
    };
  }, []);
  useEffect(() => {
    document.title = `${PAGES.find((p) => p.path === page)?.title ?? "Dashboard"} · gateway`;
    document.getElementById("main")?.focus();
  }, [page]);
  const go = (e: MouseEvent, path: PagePath) => {
    if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    history.pushState(null, "", `/dashboard${path ? `/${path}` : ""}`);
    setPage(path);
    setMenuOpen(false);
  };
  if (me.state === "failed" && "status" in me.error && (me.error as { status: number }).status === 401) return <SignIn />;
  return (
    <Async value={me} what="your account" retry={retry}>
      {(who) => {
        const admin = who.user.role === "admin";
        return (
          <div class="layout">
            <a class="skip" href="#main">
              Skip to content
            </a>
            <header class="top">
              <button type="button" class="menu" aria-expanded={menuOpen} aria-controls="nav" onClick={() => setMenuOpen(!menuOpen)}>
                Menu
              </button>
              <span class="brand">gateway</span>
              <span class="muted small">
                {who.organization.name} · {who.user.email} ({who.user.role})
              </span>
              <form method="post" action="/sign-out">
                <button type="submit">Sign out</button>
              </form>
            </header>
            <nav id="nav" class={menuOpen ? "open" : ""} aria-label="Dashboard">
              <ul>
                {PAGES.map((p) => (
                  <li key={p.path}>
                    <a
                      href={`/dashboard${p.path ? `/${p.path}` : ""}`}
                      aria-current={page === p.path ? "page" : undefined}
                      onClick={(e) => go(e, p.path)}
                    >
                      {p.title}
                    </a>
                  </li>
                ))}
              </ul>
            </nav>
            <main id="main" tabIndex={-1}>
              {/* A render error outside any section's own guard stays on this page: the navigation keeps working. */}
              <RenderGuard what="this page" data={page}>
                <Page
                  page={page}
                  admin={admin}
                  myId={who.user.id}
                  viewer={{ admin, id: who.user.id, email: who.user.email, organization: who.organization.name }}
                />
              </RenderGuard>
            </main>
          </div>
        );
      }}
    </Async>
  );
}

function Page({ page, admin, myId, viewer }: { page: PagePath; admin: boolean; myId: string; viewer: Viewer }) {
  switch (page) {
    case "":
      return <Overview />;
    case "providers":
      return <Providers viewer={viewer} />;
    case "keys":
      return admin ? <ServiceAccounts /> : <AdminsOnly />;
    case "usage":
      return <Usage admin={admin} />;
    case "routing":
      return <Routing viewer={viewer} />;
    case "mcp":
      return admin ? <McpServers /> : <AdminsOnly />;
    case "notifications":
      return <Notifications />;
    case "audit":
      return admin ? <Audit /> : <AdminsOnly />;
    case "members":
      return <Members admin={admin} myId={myId} />;
    case "preferences":
      return <Preferences admin={admin} />;
  }
}

function AdminsOnly() {
  return <p class="notice-box">Only organization admins can see this page. Ask an admin if you need access.</p>;
}

/** Offers only what works on this gateway: the shell says whether an identity provider is configured. */
function SignIn() {
  const viaIdentityProvider = document.getElementById("app")?.dataset.signIn === "identity-provider";
  return (
    <main class="notice">
      <h1>Sign in</h1>
      <p>You are not signed in, or your session ended after 24 hours without use.</p>
      {viaIdentityProvider ? (
        <p>
          <a class="button primary" href="/signup">
            Sign in with your identity provider
          </a>
        </p>
      ) : (
        <>
          <p>This gateway signs you in with a one-time link (valid 10 minutes). Whoever runs it makes one for your e-mail:</p>
          <pre class="command">./gateway login-link --email you@example.com</pre>
          <p class="muted small">
            From an installed binary the command is <code>gateway login-link --email you@example.com</code>; open the link it prints in this
            browser.
          </p>
        </>
      )}
    </main>
  );
}

render(<App />, document.getElementById("app")!);
