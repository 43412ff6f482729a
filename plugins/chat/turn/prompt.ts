// The system prompt of a turn: the agent's instructions and what the surface
// can show and do (its capability keys).
import { capabilitiesOf, surfaceInstructions, type CapabilityKey } from './capabilities.ts';

export function systemPrompt(instructions: string, keys: CapabilityKey[], askUser: boolean): string {
  const capabilities = capabilitiesOf(keys);
  const parts = [instructions.trim(), surfaceInstructions(capabilities)];
  if (askUser) {
    parts.push(capabilities.askUser
      ? 'You may ask the user one short clarifying question with ask_user when you cannot answer without it.'
      : 'The user cannot be asked questions on this surface: ask_user returns at once without an answer.');
  }
  return parts.filter(Boolean).join('\n\n');
}
