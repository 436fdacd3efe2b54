/** Members and roles: invite, change a role, remove, withdraw an invitation; your own sessions and signing out everywhere. */
import { op } from "../api.ts";
import { ActionError, Async, Empty, useAction, useLoad, when } from "../components.tsx";
import type { Member } from "../types.ts";

/** Listed until the person first signs in, whatever the address (another organization's is listed alike); expired after 7 days. */
interface Invitation {
  email: string;
  role: string;
  invitedAt: string;
  expiresAt: string;
  status: "pending" | "expired";
}

interface SessionRow {
  handle: string;
  createdAt: string;
  lastSeenAt: string;
  current: boolean;
}

export function Members({ admin, myId }: { admin: boolean; myId: string }) {
  const [list, reload] = useLoad(
    () =>
      admin
        ? op<{ members: Member[]; invitations: Invitation[] }>("org.members.list")
        : Promise.resolve({ members: [] as Member[], invitations: [] as Invitation[] }),
    [admin],
  );
  const [error, busy, act] = useAction();
  const invite = (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    void act(async () => {
      await op("org.members.invite", { email: data.get("email"), role: data.get("role") });
      form.reset();
      reload();
    });
  };
  const setRole = (m: Member, role: string) =>
    void act(async () => {
      await op("org.member.update-role", { userId: m.id, role });
      reload();
    });
  const withdraw = (i: Invitation) => {
    if (!confirm(`Withdraw the invitation of ${i.email}? They can no longer sign in here until invited again.`)) return;
    void act(async () => {
      await op("org.invitation.cancel", { email: i.email });
      reload();
    });
  };
  const remove = (m: Member) => {
    if (!confirm(`Remove ${m.email}? They are signed out at once and their personal providers stop serving.`)) return;
    void act(async () => {
      await op("org.member.remove", { userId: m.id });
      reload();
    });
  };
  return (
    <>
      <h1>Members and roles</h1>
      {admin ? (
        <>
          <form class="panel row" onSubmit={invite} aria-label="Add a member">
            <label>
              E-mail <input name="email" type="email" required />
            </label>
            <label>
              Role
              <select name="role">
                <option value="member">member</option>
                <option value="admin">admin</option>
              </select>
            </label>
            <button type="submit" class="primary" disabled={busy}>
              Add member
            </button>
          </form>
          <ActionError error={error} />
          <Async value={list} what="members" retry={reload}>
            {({ members, invitations }) => (
              <>
                <div class="table-wrap">
                  <table>
                    <Head columns={["E-mail", "Role", "Since", "Actions"]} />
                    <tbody>
                      {members.map((m) => (
                        <tr key={m.id}>
                          <td>
                            {m.email} {m.id === myId && <span class="badge">you</span>}
                          </td>
                          <td>
                            <label class="sr-only" for={`role-${m.id}`}>
                              Role of {m.email}
                            </label>
                            <select
                              id={`role-${m.id}`}
                              value={m.role}
                              disabled={busy}
                              onChange={(e) => setRole(m, (e.currentTarget as HTMLSelectElement).value)}
                            >
                              <option value="member">member</option>
                              <option value="admin">admin</option>
                            </select>
                          </td>
                          <td>{when(m.createdAt)}</td>
                          <td>
                            <button type="button" class="danger" disabled={busy} onClick={() => remove(m)}>
                              Remove
                            </button>
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
                {invitations.length > 0 && <Invitations invitations={invitations} busy={busy} withdraw={withdraw} />}
              </>
            )}
          </Async>
        </>
      ) : (
        <p class="muted">Only organization admins manage members.</p>
      )}
      <Sessions />
    </>
  );
}

/** The header row of the page's tables. */
function Head({ columns }: { columns: string[] }) {
  return (
    <thead>
      <tr>
        {columns.map((c) => (
          <th key={c} scope="col">
            {c}
          </th>
        ))}
      </tr>
    </thead>
  );
}

/** Invited, not signed in yet: an invitation lasts 7 days; adding the address again renews an expired one. */
function Invitations({ invitations, busy, withdraw }: { invitations: Invitation[]; busy: boolean; withdraw(i: Invitation): void }) {
  return (
    <section aria-label="Invitations">
      <h2>Invitations</h2>
      <p class="muted">Not signed in yet. An invitation lasts 7 days; add the address again to renew an expired one.</p>
      <div class="table-wrap">
        <table>
          <Head columns={["E-mail", "Role", "Invited", "Status", "Actions"]} />
          <tbody>
            {invitations.map((i) => (
              <tr key={i.email}>
                <td>{i.email}</td>
                <td>{i.role}</td>
                <td>{when(i.invitedAt)}</td>
                <td>{i.status === "expired" ? <span class="badge">expired</span> : `pending until ${when(i.expiresAt)}`}</td>
                <td>
                  <button
                    type="button"
                    class="danger"
                    disabled={busy}
                    aria-label={`Withdraw the invitation of ${i.email}`}
                    onClick={() => withdraw(i)}
                  >
                    Withdraw
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function Sessions() {
  const [list, reload] = useLoad(() => op<{ sessions: SessionRow[] }>("user.sessions.list"));
  const [error, busy, act] = useAction();
  const endAll = () => {
    if (!confirm("Sign out of every browser, this one included?")) return;
    void act(async () => {
      await op("user.sessions.end-all");
      location.href = "/dashboard";
    });
  };
  return (
    <section>
      <h2>Your sessions</h2>
      <ActionError error={error} />
      <Async value={list} what="sessions" retry={reload}>
        {({ sessions }) =>
          sessions.length === 0 ? (
            <Empty>No session.</Empty>
          ) : (
            <ul class="plain">
              {sessions.map((s) => (
                <li key={s.handle}>
                  Started {when(s.createdAt)}, last used {when(s.lastSeenAt)} {s.current && <span class="badge">this browser</span>}
                </li>
              ))}
            </ul>
          )
        }
      </Async>
      <button type="button" class="danger" disabled={busy} onClick={endAll}>
        Sign out everywhere
      </button>
    </section>
  );
}
