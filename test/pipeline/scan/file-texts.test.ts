/** Inline files read as text: data URLs and raw base64, declared text types, sniffed undeclared bytes, and binary files left unread. */
import { describe, expect, test } from "bun:test";
import { isTextMedia, readFileData } from "../../../src/pipeline/scan/file-texts.ts";

const b64 = (s: string) => Buffer.from(s, "utf8").toString("base64");

describe("readFileData", () => {
  test("a base64 data URL of a text type is decoded, and a changed text is written back in the same form", () => {
    const file = readFileData(`data:text/plain;base64,${b64("mail jane@corp.example.com — ok")}`);
    expect(file?.text).toBe("mail jane@corp.example.com — ok");
    expect(file?.encode("mail [EMAIL_1] — ok")).toBe(`data:text/plain;base64,${b64("mail [EMAIL_1] — ok")}`);
  });

  test("JSON, CSV, XML and markdown are text; PDFs, images and archives are not", () => {
    for (const t of ["text/csv", "text/markdown", "application/json", "application/xml", "application/vnd.api+json", "application/x-yaml"])
      expect(isTextMedia(t)).toBe(true);
    for (const t of ["application/pdf", "image/png", "application/zip", "audio/wav"]) expect(isTextMedia(t)).toBe(false);
    expect(readFileData(`data:application/json;base64,${b64('{"token":"x"}')}`)?.text).toBe('{"token":"x"}');
  });

  test("a declared binary file is unread, even when its first bytes happen to be text", () => {
    expect(readFileData("data:application/pdf;base64,JVBERi0xLjQK")).toBeNull();
    expect(readFileData("JVBERi0xLjQK", "application/pdf")).toBeNull();
  });

  test("bytes of no declared type are read when they are UTF-8 text, and unread when they are binary", () => {
    expect(readFileData(`data:application/octet-stream;base64,${b64("plain notes")}`)?.text).toBe("plain notes");
    expect(
      readFileData(`data:application/octet-stream;base64,${Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255]).toString("base64")}`),
    ).toBeNull();
  });

  test("raw base64 of text is decoded; base64-looking binary is read as it is and marked unread", () => {
    const file = readFileData(b64("the deploy token is in here"));
    expect(file?.text).toBe("the deploy token is in here");
    expect(file?.encode("changed")).toBe(b64("changed"));
    const binary = Buffer.from(Array.from({ length: 48 }, (_, i) => (i * 37) % 256)).toString("base64");
    expect(readFileData(binary)).toMatchObject({ text: binary, unread: true });
  });

  test("a percent-encoded data URL is decoded; plain text is its own text", () => {
    expect(readFileData("data:text/plain,a%20b%0Ac")?.text).toBe("a b\nc");
    expect(readFileData("data:text/plain,a%20b")?.encode("x y")).toBe("data:text/plain,x%20y");
    expect(readFileData("file-data")).toMatchObject({ text: "file-data" });
    expect(readFileData("filedata")?.unread).toBeUndefined();
  });
});
