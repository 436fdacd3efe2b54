/** The messages vendor, spoken to directly: a key, the vendor's country and format, no settings. */
import { plainSpec } from "../spec.ts";

export const anthropicSpec = plainSpec({ tierClass: "vendor", keyOptional: false, declaresCountry: false, choosesFormat: false });
