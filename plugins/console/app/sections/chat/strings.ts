// The Chat section's strings, in English and Portuguese.
import type { Locale } from '../../i18n.ts';

const en = {
  intro: 'The embeddable chat widget on this tenant’s default client ({client}), as a visitor of a site would see it, signed in as you.',
  playground: 'Playground',
  widgetTitle: 'Assistant',
  citations: 'Citations',
  citationsOf: 'Citations of the last answer',
  noAnswer: 'Ask a question: the citations of its answer are listed here, with their verification.',
  noCitations: 'the last answer cites nothing',
  document: 'Document',
  page: 'Page',
  quote: 'Quoted passage',
  verification: 'Verification',
  match: 'Match',
  listed: '{count} citation(s) of the last answer',
  verified: 'verified',
  failed: 'failed',
  pending: 'pending',
  unverified: 'unverified',
  out_of_provenance: 'not shown to the chat',
  loading: 'Loading…',
  unavailable: 'The playground cannot be shown: {message}',
};

export type ChatStrings = typeof en;

const pt: ChatStrings = {
  intro: 'O widget de chat incorporável no cliente predefinido deste inquilino ({client}), como o veria um visitante de um site, com a sua sessão.',
  playground: 'Área de testes',
  widgetTitle: 'Assistente',
  citations: 'Citações',
  citationsOf: 'Citações da última resposta',
  noAnswer: 'Faça uma pergunta: as citações da resposta aparecem aqui, com a sua verificação.',
  noCitations: 'a última resposta não cita nada',
  document: 'Documento',
  page: 'Página',
  quote: 'Passagem citada',
  verification: 'Verificação',
  match: 'Correspondência',
  listed: '{count} citação(ões) da última resposta',
  verified: 'verificada',
  failed: 'falhada',
  pending: 'pendente',
  unverified: 'não verificada',
  out_of_provenance: 'não mostrada ao chat',
  loading: 'A carregar…',
  unavailable: 'Não é possível mostrar a área de testes: {message}',
};

export const CHAT_STRINGS: Record<Locale, ChatStrings> = { en, pt };
