/**
 * `true` in the build of the `production` export condition, undeclared everywhere else (Node, tests,
 * development builds). Option checks that only help a developer sit under
 * `typeof __ENGAGE_VOICE_PRODUCTION__ === "undefined"`, which a minifier folds to `false` there and
 * drops with what it guards; checks that keep a credential safe never do.
 */
declare const __ENGAGE_VOICE_PRODUCTION__: true | undefined;
