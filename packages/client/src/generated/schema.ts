// Generated from spec/dist/openapi.json by packages/client/scripts/generate.mjs. Do not edit.
export interface paths {
    "/api/auth/login/rc/accesstoken": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Exchange a parent-platform token
         * @description Exchanges an access token of the parent telephony platform (RingCentral) for a contact-center
         *     bearer access token and, with `includeRefresh=true`, a refresh token. This is the default way to
         *     authenticate: all new accounts start on the parent platform, and accounts with single sign-on
         *     use it.
         *
         *     The answer's `agentDetails[].accountId` addresses accounts in later calls. The access token is a
         *     JWT that lives 5 minutes; renew it with the refresh endpoint, not with another exchange: this
         *     endpoint allows only **5 calls a minute** (observed). A client treats any status other than
         *     `200` as a failure.
         */
        post: operations["exchangeAccessToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/token/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Refresh an access token
         * @description Renews an access token with the latest refresh token. The answer carries a new access token
         *     **and a new refresh token, which replaces the one sent**: the old refresh token is spent. Store
         *     the new token set before you use the new access token, so that a crash cannot lose the only
         *     valid refresh token.
         *
         *     Refresh ahead of expiry (the access token's JWT `exp` claim) rather than after a `401`, and let
         *     one refresh serve every concurrent caller: two refreshes with the same token race, and the
         *     loser holds a spent token. If the refresh token is rejected, exchange a parent-platform token
         *     again.
         */
        post: operations["refreshAccessToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/voice/api/v1/admin/accounts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List accounts
         * @description Returns the accounts the user may access: the main account's sub-accounts, on which most
         *     operations are performed. The specification does not show the record's fields; the `Account`
         *     schema lists the ones public material shows, all optional.
         */
        get: operations["listAccounts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/voice/api/v1/admin/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List users
         * @description Returns the users of the account, nested in `children` unless `flatten=true` (observed). The
         *     caller needs the `MANAGE_USERS` or `SUPER_USER` role. Limited to 120 requests a minute
         *     (observed): back off exponentially on `429`. The specification does not show the response
         *     body; the `User` schema lists the fields public material shows, all optional.
         */
        get: operations["listUsers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/login/admin": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Log in with username and password (deprecated)
         * @deprecated
         * @description **Deprecated.** The endpoints on the deprecated host will stop working at a date not yet
         *     announced. Replacement: exchange a parent-platform token (`POST /api/auth/login/rc/accesstoken`)
         *     and refresh it (`POST /api/auth/token/refresh`) on the contact-center host.
         *
         *     Logs in directly with username, password and platform ID, for accounts without a
         *     parent-platform login. All three are **query parameters** and there is no body; percent-encode
         *     the values. The answer holds an access token (a very long string) and a refresh token (a
         *     shorter string). Use the access token to create permanent API tokens.
         */
        post: operations["legacyLogin"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/voice/api/v1/admin/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List permanent API tokens (deprecated host)
         * @deprecated
         * @description **Deprecated.** The endpoints on the deprecated host will stop working at a date not yet
         *     announced. Replacement: exchange a parent-platform token (`POST /api/auth/login/rc/accesstoken`)
         *     and refresh it (`POST /api/auth/token/refresh`) on the contact-center host.
         *
         *     Returns the user's permanent API tokens as a JSON array of strings (observed encoding), which
         *     shows which are still working. Authenticate with `X-Auth-Token` (a token made from user
         *     credentials, an existing API token, or a fresh access token from a login) or with
         *     `Authorization: Bearer` (an access token): the two security requirements are alternatives, so
         *     send one of the two headers, not both (what the host does with both is not specified).
         */
        get: operations["listApiTokens"];
        put?: never;
        /**
         * Create a permanent API token (deprecated host)
         * @deprecated
         * @description **Deprecated.** The endpoints on the deprecated host will stop working at a date not yet
         *     announced. Replacement: exchange a parent-platform token (`POST /api/auth/login/rc/accesstoken`)
         *     and refresh it (`POST /api/auth/token/refresh`) on the contact-center host.
         *
         *     Creates a permanent (personal) API token for callers such as an IVR. **Every call creates and
         *     returns a new token**, of the shape `<prefix>:<uuid>`, answered as plain text (observed). It
         *     persists until deleted and is sent as `X-Auth-Token`.
         */
        post: operations["createApiToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/voice/api/v1/admin/token/{apiToken}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a permanent API token (deprecated host)
         * @deprecated
         * @description **Deprecated.** The endpoints on the deprecated host will stop working at a date not yet
         *     announced. Replacement: exchange a parent-platform token (`POST /api/auth/login/rc/accesstoken`)
         *     and refresh it (`POST /api/auth/token/refresh`) on the contact-center host.
         *
         *     Deletes a permanent API token, when it is no longer needed or may be compromised. Authenticate
         *     with `X-Auth-Token` or `Authorization: Bearer` (an access token): the two security requirements
         *     are alternatives, so send one of the two headers, not both (what the host does with both is not
         *     specified). A caller may authenticate with the very token it deletes (observed). The answer is
         *     the plain text `true` (observed), with status `200` or `204`.
         */
        delete: operations["deleteApiToken"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /**
         * ExchangeForm
         * @description Form body of the token exchange.
         */
        ExchangeForm: {
            /** @description The parent-platform access token. */
            rcAccessToken: string;
            /**
             * @description Always `Bearer`.
             * @enum {string}
             */
            rcTokenType: "Bearer";
        };
        /**
         * AgentDetail
         * @description One agent record of the user, inside a token response. May carry fields not listed here.
         */
        AgentDetail: {
            /** Format: int64 */
            agentId?: number;
            firstName?: string;
            lastName?: string;
            /** @description E-mail address. */
            email?: string;
            username?: string;
            /**
             * @description `AGENT` occurs; other values are not specified.
             * @example AGENT
             */
            agentType?: string;
            /**
             * Format: int64
             * @description User identifier on the parent platform.
             */
            rcUserId?: number;
            /** @description The (sub-)account id, as numeric text. Used to address accounts in later calls. */
            accountId: string;
            accountName?: string;
            /**
             * Format: int64
             * @description The agent's group. Sources: the official OpenAPI documents type it as an integer, not nullable;
             *     the public sample token response shows `null`. Read it as an integer or
             *     `null`.
             */
            agentGroupId?: number | null;
            allowLoginControl?: boolean;
            allowLoginUpdates?: boolean;
        };
        /**
         * TokenResponse
         * @description Returned by the token exchange, the refresh and the direct login. The specification calls it
         *     abbreviated, so further properties are allowed. Read `accessToken`, `refreshToken` and
         *     `agentDetails[].accountId` for later calls. There is no `expires_in`: the access token is a JWT
         *     whose `exp` claim gives its expiry (5 minutes after issue).
         */
        TokenResponse: {
            /** @description Bearer credential for API calls. A JWT that lives 5 minutes. */
            accessToken: string;
            /**
             * @description Used to obtain a new access token. Each refresh returns a new one that replaces the old
             *     one: store the latest.
             */
            refreshToken?: string;
            /**
             * @description Always `Bearer`.
             * @enum {string}
             */
            tokenType?: "Bearer";
            /** @description One or more agent records of the user. */
            agentDetails?: components["schemas"]["AgentDetail"][];
            /**
             * Format: int64
             * @description Administrator identifier.
             */
            adminId?: number;
            /** @description Relative path of the admin UI (observed `/voice/admin/`). */
            adminUrl?: string;
            /** @description Relative path of the agent UI (observed `/voice/agent/`). */
            agentUrl?: string;
            /** @description Whether single sign-on was used. */
            ssoLogin?: boolean;
            /** @description The top-level account, as numeric text. Observed in exchange responses; not in the specification. */
            mainAccountId?: string;
            /**
             * @description Shown by the official OpenAPI documents only (whether the administrator must reset the password); public material does not settle its type,
             *     so it is left open.
             */
            adminPasswordReset?: unknown;
            /**
             * @description Shown by the official OpenAPI documents only (the same flag under another name); public material does not settle its type,
             *     so it is left open.
             */
            isAdminPasswordReset?: unknown;
            /**
             * @description Shown by the official OpenAPI documents only (the analytics UI); public material does not settle its type,
             *     so it is left open.
             */
            analyticsUrl?: unknown;
            /**
             * @description Shown by the official OpenAPI documents only (the IQ UI); public material does not settle its type,
             *     so it is left open.
             */
            iqUrl?: unknown;
            /**
             * @description Shown by the official OpenAPI documents only (a login hash code); public material does not settle its type,
             *     so it is left open.
             */
            loginHashcode?: unknown;
            /**
             * @description Shown by the official OpenAPI documents only (the platform identifier); public material does not settle its type,
             *     so it is left open.
             */
            platformId?: unknown;
            /**
             * @description Shown by the official OpenAPI documents only (a port); public material does not settle its type,
             *     so it is left open.
             */
            port?: unknown;
            /**
             * @description Shown by the official OpenAPI documents only (the parent-platform user); public material does not settle its type,
             *     so it is left open.
             */
            rcUser?: unknown;
            /**
             * @description Shown by the official OpenAPI documents only (where to redirect after login); public material does not settle its type,
             *     so it is left open.
             */
            redirectUrl?: unknown;
        };
        /**
         * ApiError
         * @description The JSON error body the platform answers with (observed; the specification shows only the
         *     `401` text `Jwt is expired`). May carry fields not listed here.
         */
        ApiError: {
            /** @description A stable, dotted error code, e.g. `access.denied.exception`. */
            errorCode: string;
            /** @description A human-readable message. */
            generalMessage: string;
            /** @description More detail; often empty. */
            details?: string;
            /** @description The path and method of the failed request, e.g. `/voice/api/v1/admin/accounts - GET`. */
            requestUri?: string;
            /**
             * Format: int64
             * @description When the error happened, in epoch milliseconds.
             */
            timestamp?: number;
        };
        /**
         * RefreshForm
         * @description Form body of the refresh. Newer public documentation sends only `refresh_token`; the
         *     specification requires both fields.
         */
        RefreshForm: {
            /** @description The latest refresh token. */
            refresh_token: string;
            /**
             * @description Always `Bearer`.
             * @enum {string}
             */
            rcTokenType: "Bearer";
        };
        /**
         * RefreshedTokenResponse
         * @description The token response of a refresh. It always carries a new `refreshToken`, which replaces the one
         *     sent: the old one is spent.
         */
        RefreshedTokenResponse: components["schemas"]["TokenResponse"] & {
            /** @description The new refresh token. Store it; the one sent is now spent. */
            refreshToken: string;
        };
        /**
         * MainAccount
         * @description The top-level account an account belongs to (observed). May carry fields not listed here.
         */
        MainAccount: {
            mainAccountId?: string;
            mainAccountName?: string;
            rcAccountId?: string;
            engageAccountId?: string;
            /**
             * Format: int32
             * @description Whether the main account is active. Sources: the official OpenAPI documents type it as an
             *     integer (int32); the prose documentation and the public samples do not show it. A boolean is
             *     accepted too as a precaution (the name reads as a flag), not because a source shows one. Code
             *     must accept both, e.g. `isActive === true || isActive === 1`.
             */
            isActive?: boolean | number;
        };
        /**
         * Account
         * @description An account record (observed: the specification does not show its fields). About 85 fields exist;
         *     these are the ones public material shows and that matter most. All are optional and unknown
         *     fields are allowed.
         */
        Account: {
            /** @description The (sub-)account id used in later paths, as numeric text. */
            accountId?: string;
            accountName?: string;
            /** @description The top-level account. */
            mainAccountId?: string;
            mainAccountName?: string;
            mainAccount?: components["schemas"]["MainAccount"];
            /** @enum {string} */
            rcAccountAccess?: "DISABLED" | "ENABLED" | "REQUIRED";
            archivedAccount?: boolean;
            /**
             * @description Sources: the official OpenAPI documents show an object (a serialized date-time class), not a
             *     string; the prose documentation and the public samples show no value. Read it as either a date
             *     string or an object.
             */
            startDate?: string | {
                [key: string]: unknown;
            };
            /**
             * @description Sources: the official OpenAPI documents show an object (a serialized date-time class), not a
             *     string; the prose documentation and the public samples show no value. Read it as either a date
             *     string or an object.
             */
            endDate?: string | {
                [key: string]: unknown;
            };
            /**
             * Format: int32
             * @description The account's time zone. Sources: the official OpenAPI documents type it as an integer (int32, a
             *     time-zone id); the prose documentation and the public samples do not show it. Text is accepted
             *     too as a precaution (a user's time zone appears by name, `timezoneName`, in the users guide), not
             *     because a source shows text here. Read it as either.
             */
            primaryTimezone?: number | string;
            enableInbound?: boolean;
            enableOutbound?: boolean;
            enableChat?: boolean;
        };
        /**
         * User
         * @description A user record (observed: the specification does not show its fields). Without `flatten=true`,
         *     users nest in `children`. All fields are optional and unknown fields are allowed.
         */
        User: {
            /** Format: int64 */
            userId?: number;
            userName?: string;
            firstName?: string;
            lastName?: string;
            fullName?: string;
            enabled?: boolean;
            rootUser?: boolean;
            userManagedByRC?: boolean;
            parentPath?: string;
            children?: components["schemas"]["User"][];
            /**
             * @description Sources: the official OpenAPI documents show an object (a serialized date-time class), not a
             *     string; the prose documentation and the public samples show no value. Read it as either a date
             *     string or an object.
             */
            creationDate?: string | {
                [key: string]: unknown;
            };
            phoneNumber?: string;
            phoneNumberE164?: string;
            rcAccountId?: string;
            /**
             * Format: int64
             * @description User identifier on the parent platform (one public client reads it as text).
             */
            rcUserId?: number;
            regionalSettings?: components["schemas"]["RegionalSettings"];
            /**
             * @description The user's roles. Sources disagree on the form of each item: two of the three official OpenAPI
             *     documents type it as a string that holds a serialized Role object, and the prose documentation
             *     shows strings (`"SUPER_USER"`); the third official document shows objects
             *     (`{ "roleType": "SUPER_USER", "description": "..." }`). Accept both, e.g.
             *     `typeof role === "string" ? role : role.roleType`, and do not assume that a string is only the
             *     role type.
             */
            roles?: components["schemas"]["UserRole"][];
        };
        /**
         * RegionalSettings
         * @description Regional settings of a user (observed). May carry fields not listed here.
         */
        RegionalSettings: {
            /**
             * Format: int32
             * @description Sources: the official OpenAPI documents type it as an integer (int32, a time-zone id); the users
             *     guide (prose documentation) names the user's time zone by text instead, as `timezoneName`. Read it
             *     as either.
             */
            timezone?: number | string;
            /** @description The time-zone name as text. Sources: the users guide (prose documentation) only. */
            timezoneName?: string;
            language?: string;
            formattingLocale?: string;
            /**
             * Format: int32
             * @description Sources: the official OpenAPI documents type it as an integer (int32); the prose documentation
             *     and the public samples do not show it (the users guide shows only `timezoneName` as text). Text
             *     is accepted too as a precaution (the name reads like a country), not because a source shows
             *     text. Read it as either.
             */
            homeCountry?: number | string;
            /**
             * @description Sources: the official OpenAPI documents only, which all type it as a string; the prose
             *     documentation and the public samples do not show it.
             */
            greetingLanguage?: string;
            /**
             * @description Sources: the official OpenAPI documents only, which all type it as a string; the prose
             *     documentation and the public samples do not show it.
             */
            homeCountryCode?: string;
            /**
             * @description Sources: the official OpenAPI documents only, which all type it as a string; the prose
             *     documentation and the public samples do not show it.
             */
            timeFormat?: string;
        };
        /**
         * UserRole
         * @description A role of a user. Sources disagree on its form: two of the three official OpenAPI documents type it
         *     as a string that holds a serialized Role object, and the prose documentation shows the role type as
         *     a string; the third official document shows an object with `roleType` and `description`. Either
         *     may come: read `typeof role === "string" ? role : role.roleType`.
         */
        UserRole: string | {
            /** @description e.g. `SUPER_USER`, `USER`, `MANAGE_USERS`, `NO_ACCESS`. */
            roleType?: string;
            description?: string;
        };
        /**
         * PermanentApiToken
         * @description An opaque permanent (personal) API token of the shape `<prefix>:<uuid-like identifier>`, such as
         *     `aws80:c2353445-7d1c-4b51-9a2e-5f0c1e8b6a47`. It persists until deleted. It is sent as the
         *     `X-Auth-Token` header and as a path segment (to delete it) exactly as issued, so the prefix is
         *     letters, digits, `-`, `.`, `_` and `~` (the characters a path takes unencoded) and the identifier
         *     letters, digits and `-`.
         * @example aws80:c2353445-7d1c-4b51-9a2e-5f0c1e8b6a47
         */
        PermanentApiToken: string;
    };
    responses: {
        /**
         * @description The request body is larger than the server accepts. Not shown in the specification: standard HTTP,
         *     which the sandbox answers above 16 KiB; the real service's limit is not published.
         */
        PayloadTooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ApiError"];
            };
        };
        /**
         * @description The credentials are missing, unknown or expired. An expired access token answers the plain text
         *     `Jwt is expired` (specified); missing or unknown credentials answer a JSON `ApiError` (observed).
         *     After `Jwt is expired`, refresh the token and retry once.
         */
        Unauthorized: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ApiError"];
                "text/plain": string;
            };
        };
    };
    parameters: {
        /**
         * @description `true` asks for a refresh token in the answer. Whether one is returned without it is not specified: send `true` if you will refresh.
         * @example true
         */
        includeRefresh: boolean;
        /**
         * @description Only enabled users (observed).
         * @example true
         */
        activeOnly: boolean;
        /**
         * @description `true` answers a flat list; otherwise users nest in `children` (observed).
         * @example true
         */
        flatten: boolean;
        /**
         * @description The user's login, usually an e-mail address.
         * @example lee.legacy@example.com
         */
        username: string;
        /**
         * @description The user's password. The deprecated endpoint takes it in the query string, so it may reach
         *     server and proxy logs: prefer the token exchange. Percent-encode it (`&`, `+`, `=` and spaces
         *     included).
         * @example correct horse+battery=staple&1
         */
        password: string;
        /**
         * @description The platform identifier; your customer success manager gives it to you.
         * @example example-platform
         */
        platformId: string;
        /**
         * @description The permanent API token to delete. A caller may authenticate with the very token it deletes (observed).
         * @example aws80:c2353445-7d1c-4b51-9a2e-5f0c1e8b6a47
         */
        apiToken: components["schemas"]["PermanentApiToken"];
    };
    requestBodies: never;
    headers: {
        /**
         * @description Seconds to wait before trying again. The service advises exponential backoff where it is absent.
         * @example 12
         */
        RetryAfter: number;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    exchangeAccessToken: {
        parameters: {
            query?: {
                /**
                 * @description `true` asks for a refresh token in the answer. Whether one is returned without it is not specified: send `true` if you will refresh.
                 * @example true
                 */
                includeRefresh?: components["parameters"]["includeRefresh"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "rcAccessToken": "U0pDMDFQMDFQQVMwMHxBQUFsZXhhbXBsZS1wYXJlbnQtdG9rZW4",
                 *       "rcTokenType": "Bearer"
                 *     }
                 */
                "application/x-www-form-urlencoded": components["schemas"]["ExchangeForm"];
            };
        };
        responses: {
            /** @description The token response. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenResponse"];
                };
            };
            /** @description The form body is missing a field, has a wrong value, or is not form-encoded (observed). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The parent-platform token was rejected (observed). Obtain a new one from the parent platform. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description More than 5 exchanges in a minute (observed). Wait `Retry-After` seconds where given. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    refreshAccessToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "refresh_token": "4f3c2b1a-0d9e-4c8b-a7f6-e5d4c3b2a190",
                 *       "rcTokenType": "Bearer"
                 *     }
                 */
                "application/x-www-form-urlencoded": components["schemas"]["RefreshForm"];
            };
        };
        responses: {
            /** @description The token response, with a new refresh token. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RefreshedTokenResponse"];
                };
            };
            /** @description The form body is missing a field, has a wrong value, or is not form-encoded (observed). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The refresh token is unknown, expired or already spent (observed). Exchange again. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
        };
    };
    listAccounts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The accounts the user may access (a JSON array, observed). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Account"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The user may not read accounts (observed). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    listUsers: {
        parameters: {
            query?: {
                /**
                 * @description Only enabled users (observed).
                 * @example true
                 */
                activeOnly?: components["parameters"]["activeOnly"];
                /**
                 * @description `true` answers a flat list; otherwise users nest in `children` (observed).
                 * @example true
                 */
                flatten?: components["parameters"]["flatten"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The users (a JSON array, observed). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"][];
                };
            };
            /** @description A query flag is not `true` or `false`, or is repeated (observed status). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The user lacks the `MANAGE_USERS` or `SUPER_USER` role (observed). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description More than 120 requests in a minute (observed). Back off exponentially. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    legacyLogin: {
        parameters: {
            query: {
                /**
                 * @description The user's login, usually an e-mail address.
                 * @example lee.legacy@example.com
                 */
                username: components["parameters"]["username"];
                /**
                 * @description The user's password. The deprecated endpoint takes it in the query string, so it may reach
                 *     server and proxy logs: prefer the token exchange. Percent-encode it (`&`, `+`, `=` and spaces
                 *     included).
                 * @example correct horse+battery=staple&1
                 */
                password: components["parameters"]["password"];
                /**
                 * @description The platform identifier; your customer success manager gives it to you.
                 * @example example-platform
                 */
                platformId: components["parameters"]["platformId"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The token response. Its full fields are not specified. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenResponse"];
                };
            };
            /** @description A query parameter is missing (observed). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Wrong username, password or platform ID (observed). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    listApiTokens: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The user's tokens. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PermanentApiToken"][];
                };
            };
            401: components["responses"]["Unauthorized"];
        };
    };
    createApiToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The new token, as plain text (observed content type). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": components["schemas"]["PermanentApiToken"];
                };
            };
            401: components["responses"]["Unauthorized"];
        };
    };
    deleteApiToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The permanent API token to delete. A caller may authenticate with the very token it deletes (observed).
                 * @example aws80:c2353445-7d1c-4b51-9a2e-5f0c1e8b6a47
                 */
                apiToken: components["parameters"]["apiToken"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted; the body is the text `true` (observed). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": "true";
                };
            };
            /** @description Deleted, without a body (observed on some hosts). */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            /** @description No such token for this user (observed). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
}
