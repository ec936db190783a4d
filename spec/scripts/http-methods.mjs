// The operations a path item can hold: OpenAPI 3.1's fixed fields, in the specification's order. The
// one list of HTTP methods of the repository: the spec's scripts read it here, and the client's
// generator copies it into the generated table (`httpMethods` of @engage-voice/client), where the
// packages and apps read it.
export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
