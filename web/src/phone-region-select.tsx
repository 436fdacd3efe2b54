/** The select of `phoneRegion`: every region the scanner has a numbering plan for, by its English name. */
import { phoneRegions } from "./phone-regions.ts" with { type: "macro" };

let options: { code: string; name: string }[] | null = null;

/** Named when first shown (not at load), so a browser without region names fails this select's section only. */
function regionOptions() {
  if (options) return options;
  const names = new Intl.DisplayNames(["en"], { type: "region" });
  options = phoneRegions()
    .map((code) => ({ code, name: `${names.of(code) ?? code} (${code})` }))
    .sort((a, b) => a.name.localeCompare(b.name, "en"));
  return options;
}

export function PhoneRegionSelect({ name, value, describedBy }: { name: string; value: string; describedBy?: string }) {
  return (
    // Preact gives a select no default value (`defaultValue` there is ignored): the saved one is the selected option.
    <select name={name} aria-describedby={describedBy}>
      {regionOptions().map((r) => (
        <option key={r.code} value={r.code} selected={r.code === value}>
          {r.name}
        </option>
      ))}
    </select>
  );
}
