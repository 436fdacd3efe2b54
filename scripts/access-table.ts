/** Prints docs/security.md's access table from the operation registry (paste it between the markers). */
import { renderAccessTable } from "../src/ops/access-table.ts";
import { createOperationRegistry } from "../src/ops/index.ts";

console.log(renderAccessTable(createOperationRegistry()));
