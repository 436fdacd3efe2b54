/**
 * The first family of tables of the SQL store, and what every family shares: the
 * driver and its helpers, the schema's life (migrate, ping, close), then
 * organizations, users, invitations, sign-in domain approvals, sessions and sign-in links. Statements are written once, with
 * `$n` parameters, for SQLite and Postgres alike.
 */
import type { LoginLink, MemberInvitation, Organization, Session, SignInDomainApproval, User } from "../../domain/types.ts";
import { type Row, toInvitation, toOrganization, toSession, toUser } from "./rows.ts";

const toApproval = (r: Row): SignInDomainApproval => ({
  domain: String(r.domain),
  orgId: String(r.org_id),
  approvedAt: Number(r.approved_at),
});
import type { SqlDriver } from "./sql-driver.ts";

export class PeopleSql {
  constructor(protected readonly db: SqlDriver) {}

  protected all(text: string, ...params: unknown[]): Promise<Row[]> {
    return this.db.all(text, params);
  }

  protected async one(text: string, ...params: unknown[]): Promise<Row | null> {
    return (await this.db.all(text, params))[0] ?? null;
  }

  /** Rows changed. */
  protected run(text: string, ...params: unknown[]): Promise<number> {
    return this.db.run(text, params);
  }

  migrate(): Promise<void> {
    return this.db.migrate();
  }

  async ping(): Promise<void> {
    await this.one("SELECT 1");
  }

  close(): Promise<void> {
    return this.db.close();
  }

  // Organizations and people

  async createOrganization(o: Organization): Promise<void> {
    await this.run("INSERT INTO organizations (id, name, tier, created_at) VALUES ($1, $2, $3, $4)", o.id, o.name, o.tier, o.createdAt);
  }

  async getOrganization(id: string): Promise<Organization | null> {
    const r = await this.one("SELECT * FROM organizations WHERE id = $1", id);
    return r ? toOrganization(r) : null;
  }

  async listOrganizations(): Promise<Organization[]> {
    return (await this.all("SELECT * FROM organizations ORDER BY created_at, id")).map(toOrganization);
  }

  async createUser(u: User): Promise<void> {
    await this.run(
      "INSERT INTO users (id, org_id, email, role, created_at) VALUES ($1, $2, $3, $4, $5)",
      u.id,
      u.orgId,
      u.email.toLowerCase(),
      u.role,
      u.createdAt,
    );
  }

  async getUser(id: string): Promise<User | null> {
    const r = await this.one("SELECT * FROM users WHERE id = $1", id);
    return r ? toUser(r) : null;
  }

  async getUserByEmail(email: string): Promise<User | null> {
    const r = await this.one("SELECT * FROM users WHERE email = $1", email.toLowerCase());
    return r ? toUser(r) : null;
  }

  async updateUserRole(id: string, role: User["role"]): Promise<User | null> {
    await this.run("UPDATE users SET role = $1 WHERE id = $2", role, id);
    return this.getUser(id);
  }

  async removeUser(id: string): Promise<boolean> {
    const counts = await this.db.transaction([
      { text: "DELETE FROM sessions WHERE user_id = $1", params: [id] },
      { text: "DELETE FROM login_links WHERE user_id = $1", params: [id] },
      { text: "DELETE FROM users WHERE id = $1", params: [id] },
    ]);
    return (counts[2] ?? 0) > 0;
  }

  async listUsers(orgId: string): Promise<User[]> {
    return (await this.all("SELECT * FROM users WHERE org_id = $1 ORDER BY created_at, id", orgId)).map(toUser);
  }

  // Invitations

  async saveInvitation(i: MemberInvitation): Promise<void> {
    await this.run(
      `INSERT INTO member_invitations (org_id, email, role, created_at, expires_at, accepted_at) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (org_id, email) DO UPDATE SET role = excluded.role, created_at = excluded.created_at,
         expires_at = excluded.expires_at, accepted_at = excluded.accepted_at`,
      i.orgId,
      i.email,
      i.role,
      i.createdAt,
      i.expiresAt,
      i.acceptedAt,
    );
  }

  async getInvitation(orgId: string, email: string): Promise<MemberInvitation | null> {
    const r = await this.one("SELECT * FROM member_invitations WHERE org_id = $1 AND email = $2", orgId, email);
    return r ? toInvitation(r) : null;
  }

  async listPendingInvitations(orgId: string): Promise<MemberInvitation[]> {
    return (
      await this.all("SELECT * FROM member_invitations WHERE org_id = $1 AND accepted_at IS NULL ORDER BY created_at, email", orgId)
    ).map(toInvitation);
  }

  async deleteInvitation(orgId: string, email: string): Promise<boolean> {
    return (await this.run("DELETE FROM member_invitations WHERE org_id = $1 AND email = $2", orgId, email)) > 0;
  }

  async acceptInvitation(orgId: string, email: string, at: number): Promise<void> {
    await this.run(
      "UPDATE member_invitations SET accepted_at = $1 WHERE org_id = $2 AND email = $3 AND accepted_at IS NULL",
      at,
      orgId,
      email,
    );
  }

  // The operator's approvals of sign-in e-mail domains

  async approveSignInDomain(a: SignInDomainApproval): Promise<SignInDomainApproval> {
    // One statement decides between two operators approving at once: the first approval stands.
    await this.run(
      "INSERT INTO sign_in_domain_approvals (domain, org_id, approved_at) VALUES ($1, $2, $3) ON CONFLICT (domain) DO NOTHING",
      a.domain,
      a.orgId,
      a.approvedAt,
    );
    return (await this.getSignInDomainApproval(a.domain)) as SignInDomainApproval;
  }

  async getSignInDomainApproval(domain: string): Promise<SignInDomainApproval | null> {
    const r = await this.one("SELECT * FROM sign_in_domain_approvals WHERE domain = $1", domain);
    return r ? toApproval(r) : null;
  }

  async listSignInDomainApprovals(): Promise<SignInDomainApproval[]> {
    return (await this.all("SELECT * FROM sign_in_domain_approvals ORDER BY domain")).map(toApproval);
  }

  async revokeSignInDomain(domain: string): Promise<SignInDomainApproval | null> {
    const r = await this.one("DELETE FROM sign_in_domain_approvals WHERE domain = $1 RETURNING *", domain);
    return r ? toApproval(r) : null;
  }

  // Sessions and sign-in links

  async createSession(s: Session): Promise<void> {
    await this.run(
      "INSERT INTO sessions (id_hash, user_id, created_at, last_seen_at) VALUES ($1, $2, $3, $4)",
      s.idHash,
      s.userId,
      s.createdAt,
      s.lastSeenAt,
    );
  }

  async getSession(idHash: string): Promise<Session | null> {
    const r = await this.one("SELECT * FROM sessions WHERE id_hash = $1", idHash);
    return r ? toSession(r) : null;
  }

  async touchSession(idHash: string, at: number): Promise<void> {
    await this.run("UPDATE sessions SET last_seen_at = $1 WHERE id_hash = $2 AND last_seen_at < $1", at, idHash);
  }

  async deleteSession(idHash: string): Promise<void> {
    await this.run("DELETE FROM sessions WHERE id_hash = $1", idHash);
  }

  async listUserSessions(userId: string): Promise<Session[]> {
    return (await this.all("SELECT * FROM sessions WHERE user_id = $1 ORDER BY last_seen_at DESC, id_hash", userId)).map(toSession);
  }

  deleteUserSessions(userId: string): Promise<number> {
    return this.run("DELETE FROM sessions WHERE user_id = $1", userId);
  }

  deleteSessionsIdleSince(cutoff: number): Promise<number> {
    return this.run("DELETE FROM sessions WHERE last_seen_at < $1", cutoff);
  }

  async createLoginLink(l: LoginLink): Promise<void> {
    await this.run(
      "INSERT INTO login_links (token_hash, user_id, expires_at, used_at) VALUES ($1, $2, $3, $4)",
      l.tokenHash,
      l.userId,
      l.expiresAt,
      l.usedAt,
    );
  }

  async consumeLoginLink(tokenHash: string, at: number): Promise<LoginLink | null> {
    // One statement: two nodes consuming the same link at once, only one gets it.
    const r = await this.one(
      "UPDATE login_links SET used_at = $1 WHERE token_hash = $2 AND used_at IS NULL AND expires_at > $1 RETURNING *",
      at,
      tokenHash,
    );
    return r
      ? { tokenHash: String(r.token_hash), userId: String(r.user_id), expiresAt: Number(r.expires_at), usedAt: Number(r.used_at) }
      : null;
  }
}
