/** The Responses API's function tool the Responses end-to-end tests call with, one definition so they ask the same thing. */
export const RESPONSES_WEATHER_TOOL = {
  type: "function" as const,
  name: "get_weather",
  description: "Weather for a city",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  strict: false,
};
