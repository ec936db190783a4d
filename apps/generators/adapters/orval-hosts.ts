// orval's runtime base URL (`output.baseUrl.runtime`) reads these; the orval adapter sets them.
export const hosts = { main: "", legacy: "" };
