/**
 * The cloud platform's ids for messages-format models: `anthropic.<model>`, or with an
 * inference-profile prefix, a two-letter geography (`us.`, `eu.`, `jp.`, ...) or one
 * of the named ones (`apac.`, `global.`, `us-gov.`). An explicit list, not "any word
 * before a dot", so that another vendor's namespace (`meta.`, `openai.`) or an AWS
 * region name (`us-east-1.`) is never taken for one.
 */
export const PLATFORM_MODEL_ID = /^(?:(?:[a-z]{2}|apac|global|us-gov)\.)?anthropic\./;
