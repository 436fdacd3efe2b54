/**
 * The catalog model a target serves, for the checks that depend on what the model is
 * (its vocabulary, whether it embeds): the one it names, or, for an Azure OpenAI
 * deployment called by its own name, the listed model its configuration's `deployments`
 * maps to that deployment. The operator wrote that map, so it says what the deployment
 * runs; a deployment nothing listed maps to is not known.
 */
import type { Catalog } from "../providers/catalog/catalog.ts";
import type { CatalogModel } from "../providers/catalog/models.ts";
import type { Target } from "../providers/target.ts";

export function servedModel(target: Target, catalog: Catalog): CatalogModel | undefined {
  if (target.catalogModel !== undefined || target.kind !== "azure-openai") return target.catalogModel;
  const map = target.settings.deployments;
  // The deployment the call goes to, as the adapter addresses it (azure-spec.ts): own entries only.
  const deployment = Object.hasOwn(map, target.model) ? map[target.model] : target.model;
  let served: CatalogModel | undefined;
  for (const [model, name] of Object.entries(map)) {
    if (name !== deployment) continue;
    const listed = catalog.model(model);
    if (listed === undefined) continue;
    // Two listed models mapped to one deployment (a dated id and its alias read as one): which it runs is not known.
    if (served !== undefined && served.id !== listed.id) return undefined;
    served = listed;
  }
  return served;
}
