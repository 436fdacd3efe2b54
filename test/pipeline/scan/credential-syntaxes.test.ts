/**
 * Credentials in the syntaxes with no assignment's sign (credential-syntaxes.ts): Erlang's
 * tuples, Clojure's keywords, Lisp's setq, Apple's property lists, MySQL's PASSWORD('…') and
 * SQL Server's sp_addlogin. Written from each syntax's documented form; placeholders, variables
 * and names of metadata stay clean.
 */
import { describe, expect, test } from "bun:test";
import { secretKinds } from "./fixture-scans.ts";

describe("found", () => {
  test.each([
    ["an Erlang tuple", '{epgsql, [{host, "db01"}, {username, "app"}, {password, "Tr7bN2qXz4"}]}'],
    ["RabbitMQ's default user", '[{rabbit, [{default_user, <<"ops">>}, {default_pass, <<"Zq7xN3pLw9!b">>}]}].'],
    ["a Clojure map", '(def db {:dbtype "postgresql" :user "app" :password "Tr7bN2qXz4"})'],
    ["a Clojure keyword with a prefix", '{:smtp-pass "Zq7xN3pLw9!b"}'],
    ["Emacs' setq", '(setq erc-password "Tr7bN2qXz4")'],
    ["Lisp's defvar", '(defvar smtp-secret "Zq7xN3pLw9!b")'],
    ["a property list's password", "<key>Password</key>\n<string>Tr7bN2qXz4</string>"],
    ["a property list's token", "<key>APIToken</key>\n\t<string>Xq7Lm2Rk9XwTz4Hn8Bc3Pd6Y</string>"],
    ["MySQL's SET PASSWORD", "SET PASSWORD FOR 'app'@'%' = PASSWORD('Tr7bN2qXz4');"],
    ["MySQL's user table", "UPDATE mysql.user SET Password=PASSWORD('Zq7xN3pLw9!b') WHERE User='root';"],
    ["SQL Server's sp_addlogin", "EXEC sp_addlogin 'app', 'Tr7bN2qXz4';"],
    ["sp_addlogin's named arguments", "EXEC sp_addlogin @loginame = 'app', @passwd = 'Zq7xN3pLw9!b';"],
  ])("%s", (_, text) => {
    expect(secretKinds(text)).toContain("password_assignment");
  });
});

describe("not found", () => {
  test.each([
    "{password, Password}",
    '{password, "changeme"}',
    '{:password "${DB_PASSWORD}"}',
    '(setq erc-password nil)',
    '(setq erc-password (auth-source-pick-first-password :host "irc"))',
    "<key>PasswordPolicy</key><string>strong</string>",
    "<key>Password</key><string>$(WIFI_PASSWORD)</string>",
    "SELECT PASSWORD('x');",
    "SET PASSWORD FOR 'app'@'%' = PASSWORD(@new);",
    "EXEC sp_addlogin 'app', 'password';",
    '{"type": "object", "properties": {"password": {"type": "string"}}}',
  ])("%p", (text) => {
    expect(secretKinds(text)).toEqual([]);
  });
});
