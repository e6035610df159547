import type { StudyKind } from '../schema/study-kind';
import type { KindModule } from './types';
import { selection } from './selection';
import { interpretation } from './interpretation';
import { task } from './task';

export { STUDY_KINDS, StudyKind } from '../schema/study-kind';
export type { KindModule, StoredTurn } from './types';

/** Every study kind's module. A kind is one folder here plus one line in lib/schema/study-kind.ts, its fields in lib/schema/kind-fields.ts, and this map. */
export const KINDS: Record<StudyKind, KindModule> = { selection, interpretation, task };

/** The module of a kind; fails fast on a kind no module defines (a stored row from a newer version). */
export function kindModule(kind: string): KindModule {
  const m = Object.hasOwn(KINDS, kind) ? KINDS[kind as StudyKind] : undefined;
  if (!m) throw new Error(`unknown study kind "${kind}"`);
  return m;
}

/** Whether a stored kind is a conversation kind (false for a kind no module defines: the page still renders). */
export function isConversationKind(kind: string): boolean {
  return Object.hasOwn(KINDS, kind) && KINDS[kind as StudyKind].turns === 'conversation';
}
