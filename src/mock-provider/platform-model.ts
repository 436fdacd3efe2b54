/**
 * The name the cloud platform's answers give the model: the vendor's own id, without the
 * platform's decorations of the id the call was addressed to (an inference-profile
 * prefix `us.` / `global.`, the `anthropic.` namespace, the `-v1:0` version suffix), as
 * InvokeModel's Anthropic answers do (`"model": "claude-sonnet-4-5-20250929"` for
 * `us.anthropic.claude-sonnet-4-5-20250929-v1:0`). The mock answering with the id as
 * addressed hid whether the gateway's substitution check accepts the real answer.
 */
export function platformAnswerModel(id: string): string {
  return id.replace(/^(?:[a-z-]+\.)?anthropic\./, "").replace(/-v\d+(?::\d+)?$/, "");
}
