/**
 * Generic credential assignments: a credential's name, a sign and a value, in env
 * files, configs and code (`DB_PASSWORD=...`, `"api_key": "..."`, `'password' => '...'`,
 * `static_password01 := "..."`). A password is a person's choice, so any real value
 * counts; a token or key must look random. Placeholders, variables, types and code
 * that reads the value from elsewhere do not count.
 */
import { inConnectionString, notAValue, passwordValue } from "./credential-forms.ts";
import type { Detector } from "./detector.ts";
import { machineRandom, namesSomething } from "./randomness.ts";
import { decodesToPlaceholder, entropy, looksLikePlaceholder, readsFromEnvironment, secretLike } from "./validators.ts";

/** Names whose assigned value is a credential, with or without a prefix (`DB_PASSWORD`, `oktaApiToken`). */
const ASSIGNED_NAME =
  "(?:password|passwd|pwd|passphrase|pass|secret|client_secret|api[_.-]?key|apikey|api_?token|access_?token|auth_?token|token|access_?key|secret_?key|private_?key|access_?id|authentication|authorization|credentials?|creds|passcode|psk)";
/**
 * `key` names a credential after a prefix (`GITLAB_KEY`, `slackKey`, `license_key`); so do `PAT`, `PW` and `SK` (a cloud's
 * secret key beside its `AK`) after a separator (`GITHUB_PAT`, `ADMIN_PW`, `HUAWEI_SK`).
 */
const PREFIXED_KEY = "[A-Za-z0-9]{1,20}(?:[_.-]?key|[_.-]pat|[_.-]pw|[_.-]sk)";
/**
 * A qualifier after the name that says which copy of the credential it is, not what else it is (`DB_PASSWORD_PROD`,
 * `JWT_SECRET_DEV`, Rails' `secret_key_base`): a list, since `password_hash`, `token_url` or `secret_name` name no credential.
 */
const QUALIFIER_NAMES =
  "prod|production|live|test|dev|development|staging|stage|stg|qa|uat|local|old|new|backup|bak|primary|secondary|default|base|value|raw|plain|enc|encoded|b64|base64|private";
const QUALIFIER = `(?:[_.-](?:${QUALIFIER_NAMES}))?`;
const QUALIFIER_AT_END = new RegExp(`${QUALIFIER}(\\d{0,3}["']?\\]?\\s{0,3})$`, "i");
/** String types a declaration names between the name and its sign (`password: string =`, `var password string =`, `Dim password As String =`, `password: &str =`). */
const STRING_TYPES = "(?:string|str|secretstr|securestring|charsequence)";
const TYPE_ANNOTATION = `(?:[ \\t]{0,3}:[ \\t]{0,3}|[ \\t]{1,3}(?:as[ \\t]{1,3})?)(?:&(?:'static[ \\t]{1,3})?)?${STRING_TYPES}`;
/** A declaration's type before its `=`, dropped so that the sign and the value are read as an assignment's. */
const TYPED = new RegExp(`^([^\\s:=]+)${TYPE_ANNOTATION}(?=[ \\t]{0,3}:?=)`, "i");
/**
 * Alone, `key` names anything, so a value under a bare `key` counts only when a machine generated it (see
 * `generatedToken`); the expression already asks for 20 token characters, so `"key": "label_3"` fails there, cheaply.
 */
const BARE_KEY = `key\\d{0,3}["']?\\]?[ \\t]{0,3}(?::=|=>|[:=])[ \\t]{0,3}["']?[A-Za-z0-9+/=_~.-]{20,128}`;
/** Keys that name no credential: a record's, a cache's, a public one. */
export const NOT_A_CREDENTIAL_KEY =
  /(?:public|publishable|pub|primary|foreign|sort|partition|range|hash|cache|idempotency|object|s3|file|hot|mon|tur|whis|jo|unique|lookup|map|dict|row|cursor|route|i18n|translation|storage|(?<!bit)bucket|sign(?:ing)?_?public|encryption_?public|react|list|item|index|group|field|column|table|form|query|event|message|state|local_?storage)[_.-]?key\d{0,3}["']?\s{0,3}$/i;
/** Tokens that name no credential: a page's, a sync's, a form's, a request's. */
const NOT_A_CREDENTIAL_TOKEN =
  /(?:page|next|continuation|sync|cursor|pagination|csrf|xsrf|nonce|request|trace|correlation)[_.-]?token\d{0,3}["']?\s{0,3}$/i;
/** A name that says what it holds is not a credential: `NOT_A_SECRET`, `non_secret_key`, `notAPassword`. */
const NEGATED_NAME =
  /(?:(?:^|[^A-Za-z])(?:not|non)[_.-]?(?:an?[_.-]?)?(?:secret|password|passwd|token|key|credential)|[a-z](?:Not|Non)(?:An?)?(?:Secret|Password|Token|Key|Credential))/i;
/** Names a chosen password or secret is assigned to: any real value counts. */
const CHOSEN_NAME =
  /(?:password|passwd|pwd|passphrase|passcode|(?<!by|com|over|under|tres|sur)pass|secret|[_.-]pw|(?<![a-z])psk)\d{0,3}["']?\s{0,3}$/i;

/**
 * What a key generator writes: 20 or more characters of one token alphabet with upper
 * and lower case and digits, spread nearly evenly (a word, a path, a camelCase name or
 * a hex digest is not).
 */
function generatedToken(value: string): boolean {
  return (
    value.length >= 20 &&
    /^[A-Za-z0-9+/=_~.-]+$/.test(value) &&
    /[a-z]/.test(value) &&
    /[A-Z]/.test(value) &&
    /\d/.test(value) &&
    !looksLikePlaceholder(value) &&
    entropy(value) >= 4.0
  );
}

/** A value that looks random enough to be a token: a digit, or a long mixed-case run that is no PascalCase name. */
function tokenLike(value: string): boolean {
  if (
    value.length < 8 ||
    /\s/.test(value) ||
    readsFromEnvironment(value) ||
    notAValue(value.replace(/^["']/, "")) ||
    looksLikePlaceholder(value)
  )
    return false;
  if (/^\d+$/.test(value)) return value.length >= 20 && entropy(value) >= 3.0;
  if (!/[A-Za-z]/.test(value)) return false;
  // A resource's or a path's name with a number in it (`my-app-tls-7f9c8d6b5-x2k4p`) is no token; what the character model calls generated is.
  if (namesSomething(value)) return false;
  if (machineRandom(value)) return true;
  // Capitalized words, then digits and lower case only, what the model does not call generated: a name
  // (`InvalidLength12345abbbb`, `ProdDeployKey42`); a random value has more capitals or a sign (`DqnykRwi^7m2`).
  if (/^(?:[A-Z][a-z]{2,}){2,}\d*[a-z]*$/.test(value)) return false;
  if (/\d/.test(value)) return secretLike(value, 3.0);
  return value.length >= 16 && /[a-z]/.test(value) && /[A-Z]/.test(value) && !/^(?:[A-Z][a-z]+)+$/.test(value) && secretLike(value, 3.5);
}

/**
 * YAML's block and folded values (`password: |`, `token: >-` in a Helm values or compose file): the value is the next,
 * indented line. Read after the name, in place of a sign and a value on the same line.
 */
const YAML_BLOCK = `["']?[ \\t]{0,3}:[ \\t]{0,3}[|>][+-]?\\d?[ \\t]{0,3}\\r?\\n[ \\t]{1,12}[^\\s][^\\n]{2,127}`;
const YAML_BLOCK_AT = /["']?[ \t]*:[ \t]*[|>][+-]?\d?[ \t]*\r?\n[ \t]*/;

/** A JWT with no signature (`alg: none`): a token's claims, not a credential. */
export const UNSIGNED_JWT = /^eyJ[\w-]+\.eyJ[\w-]+\.?$/;

/** A JWT's shape with words for its parts (`eyJhbGci….body.signature`, `eyJ….payload.sig`): a template of one. */
export const JWT_TEMPLATE = /^eyJ[\w-]+(?:\.[a-z]{3,12}){1,2}$/;

/** `a.b.password`, `self.secret`, `cfg.api_key`: a member access whose last name is a credential's word. */
const MEMBER_NAMING_ITSELF =
  /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*\.[\w$]*(?:password|passwd|pwd|pass|secret|token|key|credentials?)\d{0,2}$/i;

/** Whether `index` opens a parameter of a URL's query (`https://…/api?key=…`): a bare `key` there is an API's key. */
const inUrlQuery = (text: string, index: number) => /:\/\/[^\s"'<>]*[?&]$/.test(text.slice(Math.max(0, index - 256), index));

/** The value of a generic assignment: a chosen password by its name, a token by its randomness. */
function assignedCredential(match: string, text: string, index: number): boolean {
  // A YAML block or folded value (`password: |`, `token: >-`) is the next line, literal text: judged as that line quoted.
  const block = YAML_BLOCK_AT.exec(match);
  const m = block
    ? `${match.slice(0, block.index)}: "${match
        .slice(block.index + block[0].length)
        .trimEnd()
        .replace(/"/g, "'")}"`
    : match;
  const untyped = m.replace(TYPED, "$1");
  // A quote may come escaped: code inside a JSON string (a notebook's cell, a logged request) writes `password = \"…\"`.
  // After a quoted name, a comma and maybe `default=` (`env("SECRET_KEY", default="…")`): the lookup's fallback value.
  const sign = /(?::=|=>|[:=]|,(?:[ \t]*default[ \t]*=)?)[ \t]*\\?(["']?)/.exec(untyped);
  if (!sign) return false;
  // An aligned column's blanks (`passwd    = "…"`, gofmt's and Terraform's) read as one.
  const name = untyped
    .slice(0, sign.index)
    .replace(/[ \t]{4,}$/, " ")
    .replace(QUALIFIER_AT_END, "$1");
  const written = untyped.slice(sign.index + sign[0].length).replace(/\\?["']$/, "");
  // A parameter of a URL's query ends at the next `&` (`?user=app&password=password&ssl=true`).
  const value = sign[1] === "" && written.includes("&") && inUrlQuery(text, index) ? (written.split("&")[0] as string) : written;
  // A member access ending in the credential's own word (`pwd=instance_info.password`, `secret: settings.SECRET`) says
  // where the value is kept, whatever the line looks like.
  if (sign[1] === "" && MEMBER_NAMING_ITSELF.test(value)) return false;
  // Inside an ARN (`arn:aws:secretsmanager:…:secret:prod/db/password-AbCdEf`) a name is a resource's; an unsigned JWT grants nothing.
  if (/\barn:[^\s]*$/.test(text.slice(Math.max(0, index - 128), index)) || UNSIGNED_JWT.test(value) || JWT_TEMPLATE.test(value))
    return false;
  // Inside a template's reference (`'{{resolve:secretsmanager:…/authtoken:SecretString:password}}'`) a name is a path's part.
  if (/\{\{[^}\s]*$/.test(text.slice(Math.max(0, index - 128), index))) return false;
  // A Secret manifest's or a config's base64 value that decodes to a placeholder (`password: Y2hhbmdlbWU=`, `changeme`);
  // unquoted, the match stops before the padding.
  const padded = value.replace(/=+$/, "").padEnd(Math.ceil(value.replace(/=+$/, "").length / 4) * 4, "=");
  if (/^[A-Za-z0-9+/]{8,}={0,2}$/.test(value) && decodesToPlaceholder(padded)) return false;
  if (/key\d{0,3}["']?\]?\s{0,3}$/i.test(name) && NOT_A_CREDENTIAL_KEY.test(name.replace(/\]\s*$/, ""))) return false;
  // A page's cursor or a form's anti-forgery token is random and grants nothing: `next_page_token`, `csrf_token`.
  if (NOT_A_CREDENTIAL_TOKEN.test(name) || NEGATED_NAME.test(name)) return false;
  // `"key": ...`, `['key'] = ...`: the name says nothing, the value must. `"kerberos_authentication": ...` names a
  // credential or a scheme's setting (`authentication: required`): only a generated value counts there.
  if (/^[\s"'[]*key\d{0,3}["'\]\s]*$/i.test(name) || /auth(?:entication|orization)\d{0,3}["'\]\s]*$/i.test(name))
    return generatedToken(value) || (inUrlQuery(text, index) && /^[0-9a-f]{32,}$/i.test(value) && secretLike(value, 3.0));
  // A random run of both cases and digits under `*_credential` is the credential itself; a file or a path is where it is.
  if (/(?:credentials?|creds)\d{0,3}["'\]\s]*$/i.test(name))
    return generatedToken(value) || (/[a-z]/.test(value) && /[A-Z]/.test(value) && !/[./\\]/.test(value) && tokenLike(value));
  if (!CHOSEN_NAME.test(name)) return tokenLike(value);
  const connection = inConnectionString(text, index);
  // `NAME=value` with no blanks is an env file's or a query string's line, not code: one kind of character is enough there.
  const envLine = /^[\w.-]+=$/.test(untyped.slice(0, sign.index + 1)) && value.length >= 8 && !/^[a-z]+(?:_[a-z]+)+$/.test(value);
  // A long generated value reads like a member access unquoted (`app.dropbox.secret: sl.uc9j…`, Mapbox's `pk.…`): still a token.
  return passwordValue(value, sign[1] !== "" || connection || envLine, connection ? 3 : 6) || (value.length >= 32 && tokenLike(value));
}

/**
 * The last two characters of each alternative of `(?:a|b|…)` (both readings of one that ends with an optional
 * character, `credentials?`): how a name can end, for the trigger walk's gate. Throws on an alternative whose end it
 * cannot read as two plain characters, so a change to the names that this reading would miss fails where it loads.
 */
export function endingPairs(...groups: string[]): string[] {
  const pairs = new Set<string>();
  for (const group of groups)
    for (const alternative of group.replace(/^\(\?:|\)$/g, "").split("|")) {
      const readings = alternative.endsWith("?") ? [alternative.slice(0, -2), alternative.slice(0, -1)] : [alternative];
      for (const reading of readings) {
        const pair = reading.slice(-2).toLowerCase();
        if (!/^[a-z0-9]{2}$/.test(pair)) throw new Error(`cannot read how ${JSON.stringify(alternative)} ends`);
        pairs.add(pair);
      }
    }
  return [...pairs];
}

/** Names the start's `name` reads beside ASSIGNED_NAME (see PREFIXED_KEY). */
const SIGN_NAMES = "key|[_.-]pat|[_.-]pw|[_.-]sk";

export const ASSIGNMENT_DETECTOR: Detector = {
  kind: "password_assignment",
  category: "secret",
  ignoreCase: true,
  // Up to three prefix segments (DB_PASSWORD, CARGO_REGISTRY_TOKEN) or a camelCase prefix (oktaApiToken), and a numbered
  // suffix (static_password01): the name has no boundary of its own. Each segment but the last ends at its separator, so a
  // name is read one way; at most 80 characters precede the sign, inside the trigger's window (trigger-specials.ts).
  // The sign is `:`, `=`, `:=` or `=>`, or a comma after a quoted name (`getenv("API_TOKEN", "<default>")`), as gitleaks'
  // generic rule reads. The value is on the same line; quoted, it may hold blanks (a passphrase).
  pattern: `\\b(?:(?:[A-Za-z0-9]{1,20}[_.-]){0,2}(?:(?:[A-Za-z0-9]{1,20}[_.-]?)?${ASSIGNED_NAME}|${PREFIXED_KEY})${QUALIFIER}\\d{0,3}(?:${TYPE_ANNOTATION}(?=[ \\t]{0,3}:?=))?(?:(?:\\\\?["']?\\]?[ \\t]{0,32}(?::=|=>|[:=])|\\\\?["'][ \\t]{0,3},(?:[ \\t]{0,3}default[ \\t]{0,3}=)?)[ \\t]{0,32}(?:\\\\?"[^"\\n]{3,128}"|\\\\?'[^'\\n]{3,128}'|["']?[^\\s"'\`,;=<]{3,128})|${YAML_BLOCK})|${BARE_KEY})`,
  start: {
    at: "assignment",
    name: new RegExp(
      `(?:${ASSIGNED_NAME}|${SIGN_NAMES})${QUALIFIER}\\d{0,3}(?:${TYPE_ANNOTATION})?\\\\?["']?\\]?(?:\\s{0,3}|[ \\t]{4,32})$`,
      "i",
    ),
    // A declaration's type needs no pair of its own: after `:` its name ends at the `:` (`password: str = …`), and `string`
    // ends as `staging` does (`var dbPassword string = …`); `ce` and `tr` would try prose's `since,` and `metr:`.
    ends: endingPairs(ASSIGNED_NAME, SIGN_NAMES, QUALIFIER_NAMES),
  },
  valueAfter: /[:=,]>?[ \t]*["']?/,
  validate: assignedCredential,
};
