import { type OperationId, operationTable } from "./generated/hosts.js";

/** The entry of the generated operation table for `Id`: its method, path and host, as literal types. */
export type Operation<Id extends OperationId = OperationId> = Extract<
  (typeof operationTable)[number],
  { operationId: Id }
>;

/**
 * The document's method, path and host of an operation, by `operationId`: for code that names an
 * operation instead of keeping a copy of its path. Throws for an id the document does not have (a
 * JavaScript caller, or an operation since removed), so a stale name fails where it is read.
 */
export function operation<Id extends OperationId>(operationId: Id): Operation<Id> {
  const found = operationTable.find((op) => op.operationId === operationId);
  if (!found) {
    throw new RangeError(`The document has no operation ${String(operationId)}`);
  }
  return found as Operation<Id>;
}
