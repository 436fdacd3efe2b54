/** Preferences: the organization's (budget, scan actions, phone region, alert webhook and check interval, routing default, sign-in domains, context optimizer; admins change them) and your own. */
import { useState } from "preact/hooks";
import { op } from "../api.ts";
import { ActionError, Async, SecretOnce, useAction, useLoad } from "../components.tsx";
import { PhoneRegionSelect } from "../phone-region-select.tsx";
import type { Preferences as Prefs } from "../types.ts";

export function Preferences({ admin }: { admin: boolean }) {
  const [prefs, reload] = useLoad(() => op<Prefs>("user.preferences"));
  const [error, busy, act] = useAction();
  const [saved, setSaved] = useState(false);
  // The webhook signing secret made with the first alert webhook URL: in the save's answer only.
  const [webhookSecret, setWebhookSecret] = useState<string | null>(null);
  const save = (e: Event) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget as HTMLFormElement);
    const set: Record<string, unknown> = { timezone: data.get("timezone"), emailNotifications: data.get("emailNotifications") === "on" };
    if (admin) {
      const budget = String(data.get("budget") ?? "");
      set.monthlyBudgetCents = budget === "" ? null : Math.round(Number(budget) * 100);
      set.piiAction = data.get("piiAction");
      set.security = { injection: data.get("injection") };
      const hook = String(data.get("alertWebhookUrl") ?? "").trim();
      set.alertWebhookUrl = hook === "" ? null : hook;
      const interval = String(data.get("alertCheckIntervalS") ?? "").trim();
      set.alertCheckIntervalS = interval === "" ? null : Number(interval);
      set.phoneRegion = data.get("phoneRegion");
      set.defaultRouteStrategy = data.get("defaultRouteStrategy");
      set.signInEmailDomains = String(data.get("signInEmailDomains") ?? "")
        .split(/[\s,]+/)
        .map((d) => d.trim().toLowerCase())
        .filter(Boolean);
      set.contextOptimizer = data.get("contextOptimizer") === "on";
    }
    setSaved(false);
    void act(async () => {
      const answer = await op<{ webhookSecret?: { secret: string } }>("user.preferences", { set });
      if (answer.webhookSecret) setWebhookSecret(answer.webhookSecret.secret);
      reload();
    }).then(setSaved);
  };
  return (
    <>
      <h1>Preferences</h1>
      {webhookSecret && (
        <SecretOnce
          title="Alert webhook signing secret (receivers check x-gw-signature with it)"
          value={webhookSecret}
          onDone={() => setWebhookSecret(null)}
        />
      )}
      <Async value={prefs} what="preferences" retry={reload}>
        {(p) => (
          <form class="panel" onSubmit={save} aria-label="Preferences">
            <fieldset disabled={!admin}>
              <legend>Organization {admin ? "" : "(admins change these)"}</legend>
              <label>
                Monthly budget, USD{" "}
                <input
                  name="budget"
                  type="number"
                  min={0}
                  step="0.01"
                  defaultValue={p.monthlyBudgetCents === null ? "" : String(p.monthlyBudgetCents / 100)}
                />
              </label>
              <label>
                Personal data in prompts
                <select name="piiAction">
                  <option value="redact" selected={p.piiAction === "redact"}>
                    redact it
                  </option>
                  <option value="block" selected={p.piiAction === "block"}>
                    block the call
                  </option>
                </select>
              </label>
              <label>
                Prompt injection
                <select name="injection" aria-describedby="injection-note">
                  <option value="block" selected={p.security.injection === "block"}>
                    block when sure, flag when suspected
                  </option>
                  <option value="flag" selected={p.security.injection === "flag"}>
                    flag only (forward and count)
                  </option>
                </select>
              </label>
              <p id="injection-note" class="muted small">
                Scanning is always on and credentials always block. Flagged calls are forwarded, counted on the overview and recorded in the
                audit log (where, never what).
              </p>
              <label>
                Phone region (numbers written without +)
                <PhoneRegionSelect name="phoneRegion" value={p.phoneRegion} describedBy="phone-region-note" />
              </label>
              <p id="phone-region-note" class="muted small">
                Where the scanner reads a phone number written without a country code (<code>030 1234567</code>) as a national number.
                Numbers with <code>+</code> are recognized in every region.
              </p>
              <label>
                Alert webhook URL <input name="alertWebhookUrl" type="url" defaultValue={p.alertWebhookUrl ?? ""} />
              </label>
              <label>
                Alert check interval, seconds{" "}
                <input
                  name="alertCheckIntervalS"
                  type="number"
                  min={30}
                  max={86400}
                  step={1}
                  placeholder="operator's default"
                  defaultValue={p.alertCheckIntervalS === null ? "" : String(p.alertCheckIntervalS)}
                  aria-describedby="alert-interval-note"
                />
              </label>
              <p id="alert-interval-note" class="muted small">
                How often budget thresholds and rate-limit states are checked for alerts: 30 to 86400 seconds. Empty: the operator's default
                (<code>GW_ALERT_CHECK_INTERVAL_S</code>, 300 unless set).
              </p>
              <label>
                Default routing strategy
                <select name="defaultRouteStrategy">
                  {["balanced", "cost", "speed", "quality"].map((s) => (
                    <option value={s} selected={s === p.defaultRouteStrategy}>
                      {s}
                    </option>
                  ))}
                </select>
              </label>
              <label>
                E-mail domains that may join at first sign-in{" "}
                <input
                  name="signInEmailDomains"
                  defaultValue={p.signInEmailDomains.join(", ")}
                  placeholder="example.com"
                  aria-describedby="sign-in-domains-note"
                />
              </label>
              <p id="sign-in-domains-note" class="muted small">
                Verified addresses of these domains join as members at their first sign-in. A domain is listed by one organization only;
                when this gateway hosts several, each domain also needs its operator's approval (
                <code>gateway sign-in-domains approve</code>).
              </p>
              <label class="check">
                <input
                  name="contextOptimizer"
                  type="checkbox"
                  defaultChecked={p.contextOptimizer}
                  aria-describedby="context-optimizer-note"
                />{" "}
                Optimize the context of model calls
              </label>
              <p id="context-optimizer-note" class="muted small">
                Normalizes, deduplicates and compresses the text of chat, messages and responses calls before they are scanned and sent
                (never inside code blocks or quotes). A caller skips it for one call with the header <code>x-gw-optimize: off</code>.
              </p>
            </fieldset>
            <fieldset>
              <legend>You</legend>
              <label>
                Time zone <input name="timezone" required defaultValue={p.timezone} />
              </label>
              <label class="check">
                <input name="emailNotifications" type="checkbox" defaultChecked={p.emailNotifications} /> E-mail notifications
              </label>
            </fieldset>
            <ActionError error={error} />
            <button type="submit" class="primary" disabled={busy}>
              {busy ? "Saving…" : "Save"}
            </button>{" "}
            <span class="muted" aria-live="polite">
              {saved ? "Saved." : ""}
            </span>
          </form>
        )}
      </Async>
    </>
  );
}
