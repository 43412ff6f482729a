// Reading the ingestion GraphQL arguments: ids (a collection's is an integer
// in an ID, a document's a UUID), the list filters, and the cursor keys each
// list accepts. A malformed id inside a filter or a mutation is
// BAD_USER_INPUT; a lookup by a malformed id finds nothing.
import { badInput, isUuid } from 'agent-platform/sdk';
import { DOCUMENT_KEY_TIME } from '../store/documents.ts';
import type { CollectionFilter } from '../store/collections.ts';
import type { DocumentListFilter } from '../services/documents.ts';
import type { IngestionStatus } from '../store/tables.ts';

const MAX_INT = 2147483647;

/** The collection id an ID holds, or undefined when it is not one. */
export function collectionIdOf(id: string | number): number | undefined {
  const text = String(id);
  if (!/^[1-9][0-9]{0,9}$/.test(text)) return undefined;
  const value = Number(text);
  return value <= MAX_INT ? value : undefined;
}

export function requireCollectionId(id: string | number, name: string): number {
  const value = collectionIdOf(id);
  if (value === undefined) throw badInput(`${name} is not a valid collection id`);
  return value;
}

export function requireDocumentId(id: string, name: string): string {
  if (!isUuid(id)) throw badInput(`${name} is not a valid document id`);
  return id.toLowerCase();
}

export interface CollectionFilterInput {
  parentId?: string | null;
  topLevel?: boolean | null;
}

export function collectionFilterOf(input: CollectionFilterInput | null | undefined): CollectionFilter {
  if (!input) return {};
  if (input.parentId != null && input.topLevel) throw badInput('Set parentId or topLevel, not both');
  if (input.parentId != null) return { parentId: requireCollectionId(input.parentId, 'parentId') };
  return input.topLevel ? { parentId: null } : {};
}

export interface DocumentFilterInput {
  collectionId?: string | null;
  status?: string | null;
  includeDescendants?: boolean | null;
}

/** The list filter; `collectionId` is the collection whose documents are listed (Collection.documents), where the input may not name one. */
export function documentFilterOf(input: DocumentFilterInput | null | undefined, collectionId?: number): DocumentListFilter {
  const filter: DocumentListFilter = {
    includeDescendants: input?.includeDescendants ?? true,
    status: input?.status ? (input.status.toLowerCase() as IngestionStatus) : undefined,
  };
  if (collectionId !== undefined) {
    if (input?.collectionId != null) throw badInput('filter.collectionId cannot be set on a collection\'s documents');
    filter.collectionId = collectionId;
  } else if (input?.collectionId != null) {
    filter.collectionId = requireCollectionId(input.collectionId, 'collectionId');
  }
  return filter;
}

export const isOrdinalKey = (key: unknown): key is number => Number.isSafeInteger(key) && (key as number) >= 0;

export const isCollectionKey = (key: unknown): key is number => Number.isSafeInteger(key) && (key as number) >= 0;

export const isDocumentKey = (key: unknown): key is [string, string] =>
  Array.isArray(key) && key.length === 2 && typeof key[0] === 'string' && DOCUMENT_KEY_TIME.test(key[0]) && isUuid(key[1]);
