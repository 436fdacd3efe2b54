/** The gateway's version, from package.json (inlined into the compiled binary). */
import pkg from "../package.json" with { type: "json" };

export const VERSION: string = pkg.version;
export const API_VERSION = "1.0.0";
