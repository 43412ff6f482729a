// PPTX: each slide is a page; its title placeholder opens a section named
// after it ("Slide 3: Results" when untitled slides need a name), its text
// frames follow paragraph by paragraph, and speaker notes are appended. Read
// from the package's XML (slides in presentation order) with htmlparser2's
// XML mode.
import JSZip from 'jszip';
import { parseDocument, DomUtils } from 'htmlparser2';
import type { Element } from 'domhandler';
import { ParseError, TextBuilder, type ParsedDocument } from './types.ts';

function paragraphs(element: Element): string[] {
  return DomUtils.getElementsByTagName('a:p', element, true).map((p) =>
    DomUtils.getElementsByTagName('a:t', p, true).map((t) => DomUtils.textContent(t)).join('').trim()).filter(Boolean);
}

function isTitle(shape: Element): boolean {
  const placeholder = DomUtils.getElementsByTagName('p:ph', shape, true)[0];
  const type = placeholder?.attribs.type;
  return type === 'title' || type === 'ctrTitle';
}

async function slideOrder(zip: JSZip): Promise<string[]> {
  const presentation = await zip.file('ppt/presentation.xml')?.async('string');
  const rels = await zip.file('ppt/_rels/presentation.xml.rels')?.async('string');
  if (!presentation || !rels) throw new ParseError('Invalid PPTX: no presentation part');
  const targets = new Map<string, string>();
  for (const rel of DomUtils.getElementsByTagName('Relationship', parseDocument(rels, { xmlMode: true }).children, true)) {
    targets.set(rel.attribs.Id, `ppt/${rel.attribs.Target.replace(/^\/?ppt\//, '').replace(/^\.\//, '')}`);
  }
  return DomUtils.getElementsByTagName('p:sldId', parseDocument(presentation, { xmlMode: true }).children, true)
    .map((slide) => targets.get(slide.attribs['r:id']))
    .filter((target): target is string => Boolean(target));
}

export async function parsePptx(bytes: Uint8Array): Promise<ParsedDocument> {
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(bytes);
  } catch (err) {
    throw new ParseError(`Invalid PPTX: ${(err as Error).message}`);
  }
  const slides = await slideOrder(zip);
  const builder = new TextBuilder();
  for (const [index, part] of slides.entries()) {
    const number = index + 1;
    const xml = await zip.file(part)?.async('string');
    if (!xml) continue;
    const shapes = DomUtils.getElementsByTagName('p:sp', parseDocument(xml, { xmlMode: true }).children, true);
    const title = shapes.filter(isTitle).flatMap(paragraphs).join(' ');
    const body = shapes.filter((shape) => !isTitle(shape)).flatMap(paragraphs);
    const notesPart = part.replace('slides/slide', 'notesSlides/notesSlide');
    const notesXml = await zip.file(notesPart)?.async('string');
    const notes = notesXml
      ? DomUtils.getElementsByTagName('p:sp', parseDocument(notesXml, { xmlMode: true }).children, true)
        .filter((shape) => DomUtils.getElementsByTagName('p:ph', shape, true)[0]?.attribs.type === 'body').flatMap(paragraphs)
      : [];
    const text = [title, ...body, ...(notes.length ? ['Notes:', ...notes] : [])].filter(Boolean).join('\n');
    const { start, end } = builder.append(text);
    const section = title ? title : `Slide ${number}`;
    builder.pages.push({ page: number, char_start: start, char_end: end, kind: 'text', ocr: false, rendered: false });
    builder.openSection(section, 1, number, start);
    builder.segment(start, end, number, section);
  }
  if (builder.text.trim() === '') throw new ParseError('The presentation has no text');
  return builder.finish('pptx-xml', slides.length);
}
