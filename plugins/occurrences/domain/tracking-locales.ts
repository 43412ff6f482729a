// The tracking page's words, in English and Portuguese, and how a request
// chooses: `?lang=` when it names one of them, else the first of
// Accept-Language (by q) that is, else English.
export type TrackingLang = 'en' | 'pt';

export interface TrackingWords {
  title: (reference: string) => string;
  reference: string;
  type: string;
  description: string;
  address: string;
  state: string;
  created: string;
  history: string;
  messages: string;
  noMessages: string;
  notFoundTitle: string;
  notFound: string;
}

export const WORDS: Record<TrackingLang, TrackingWords> = {
  en: {
    title: (reference) => `Report ${reference}`,
    reference: 'Reference',
    type: 'Type',
    description: 'Description',
    address: 'Address',
    state: 'State',
    created: 'Reported',
    history: 'State history',
    messages: 'Messages sent to you',
    noMessages: 'No messages yet.',
    notFoundTitle: 'Report not found',
    notFound: 'There is no report with this reference here. Check the link you received.',
  },
  pt: {
    title: (reference) => `Ocorrência ${reference}`,
    reference: 'Referência',
    type: 'Tipo',
    description: 'Descrição',
    address: 'Morada',
    state: 'Estado',
    created: 'Registada',
    history: 'Histórico de estados',
    messages: 'Mensagens enviadas',
    noMessages: 'Ainda sem mensagens.',
    notFoundTitle: 'Ocorrência não encontrada',
    notFound: 'Não existe aqui nenhuma ocorrência com esta referência. Verifique a ligação que recebeu.',
  },
};

const known = (tag: string): TrackingLang | undefined => {
  const primary = tag.trim().toLowerCase().split('-')[0];
  return primary === 'en' || primary === 'pt' ? primary : undefined;
};

export function chooseLang(query: unknown, acceptLanguage: unknown): TrackingLang {
  if (typeof query === 'string' && known(query)) return known(query)!;
  if (typeof acceptLanguage !== 'string') return 'en';
  const ranked = acceptLanguage.slice(0, 1000).split(',').map((part, index) => {
    const [tag, ...params] = part.split(';');
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find(Boolean);
    return { tag, q: q === undefined ? 1 : Number(q), index };
  }).filter((entry) => entry.q > 0).sort((a, b) => b.q - a.q || a.index - b.index);
  for (const entry of ranked) {
    const lang = known(entry.tag);
    if (lang) return lang;
  }
  return 'en';
}
