/** A profile's samples split by stage, and the rest of the call's heaviest functions with one stage set aside. */
import { expect, test } from "bun:test";
import { type Profile, selfOutside, splitByStage } from "../../bench/lib/profile-stages.ts";

const frame = (id: number, functionName: string, url: string, children: number[] = []) => ({
  id,
  callFrame: { functionName, url, lineNumber: 9 },
  children,
});

// root -> the request runner -> the scanner's engine -> a regular expression (native)
//                            -> Response (native)
//      -> (idle)
const profile: Profile = {
  nodes: [
    frame(1, "(root)", "", [2, 6]),
    frame(2, "run", "file:///repo/src/http/request-runner.ts", [3, 5]),
    frame(3, "scanText", "file:///repo/src/pipeline/scan/engine.ts", [4]),
    frame(4, "exec", ""),
    frame(5, "Response", ""),
    frame(6, "(idle)", ""),
  ],
  samples: [4, 4, 3, 5, 5, 5, 2, 6, 6, 6],
};

test("each sample goes to the stage of its innermost stage frame; idle samples are not counted", () => {
  const split = splitByStage(profile);
  expect(split.total).toBe(7);
  expect(Object.fromEntries(split.samples)).toEqual({
    "scan (with the classifier)": 3,
    "request frame, surface and stage glue": 4,
  });
});

test("outside a stage, self time by function: the runtime's own counted where it runs, the stage's left out", () => {
  const rest = selfOutside(profile, "scan (with the classifier)");
  expect(rest.total).toBe(7);
  expect(Object.fromEntries(rest.samples)).toEqual({
    "Response  (native):10": 3,
    "run  src/http/request-runner.ts:10": 1,
  });
});
