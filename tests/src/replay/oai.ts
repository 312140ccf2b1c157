import { isoSeconds, isDay } from './calendar.ts';
import { XML_TYPE, textReply, type Reply, type ReplayContext } from './context.ts';
import { corpusIndex, type CorpusPaper } from './corpus.ts';
import { METADATA_PREFIXES, inSet, isKnownSet, recordHeaderXml, recordXml } from './oai-records.ts';
import type { MetadataPrefix } from './oai-records.ts';
import { decodeToken, encodeToken, type ListQuery, type ListVerb } from './oai-token.ts';
import { escapeAttr } from './xml.ts';

/**
 * OAI-PMH generated from the listing corpus, in arXiv's envelope. Each record's datestamp is its listing
 * date: the corpus has no modification times, and the listing date is the closest stand-in (arXiv's own
 * datestamps are set when a record changes, which for a fresh paper is about when it is announced).
 */

const ENVELOPE_OPEN =
  '<?xml version="1.0" encoding="UTF-8"?>\n' +
  '<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.openarchives.org/OAI/2.0/ http://www.openarchives.org/OAI/2.0/OAI-PMH.xsd">\n';

const ARGUMENTS: Record<string, { required: string[]; optional: string[] }> = {
  Identify: { required: [], optional: [] },
  ListMetadataFormats: { required: [], optional: ['identifier'] },
  ListSets: { required: [], optional: ['resumptionToken'] },
  GetRecord: { required: ['identifier', 'metadataPrefix'], optional: [] },
  ListRecords: { required: ['metadataPrefix'], optional: ['from', 'until', 'set', 'resumptionToken'] },
  ListIdentifiers: { required: ['metadataPrefix'], optional: ['from', 'until', 'set', 'resumptionToken'] },
};

class OaiError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

function envelope(ctx: ReplayContext, requestAttrs: string, body: string): Reply {
  const xml =
    ENVELOPE_OPEN +
    `<responseDate>${isoSeconds(ctx.nowMs())}</responseDate>\n` +
    `<request${requestAttrs}>${escapeAttr(ctx.oaiUrl)}</request>\n` +
    body +
    '</OAI-PMH>\n';
  return textReply(200, XML_TYPE, xml);
}

function requestAttributes(params: URLSearchParams): string {
  const verb = params.get('verb') ?? '';
  const rest = [...params].filter(([name]) => name !== 'verb');
  return [['verb', verb], ...rest].map(([name, value]) => ` ${name}="${escapeAttr(value ?? '')}"`).join('');
}

function errorReply(ctx: ReplayContext, params: URLSearchParams, error: OaiError): Reply {
  // The protocol echoes no arguments for badVerb and badArgument, since they may be the problem.
  const echo = error.code === 'badVerb' || error.code === 'badArgument' ? '' : requestAttributes(params);
  return envelope(ctx, echo, `<error code="${error.code}">${escapeAttr(error.message)}</error>\n`);
}

/** The answer for the `expiredToken` fault, and for any token older than the current generation. */
export function badResumptionTokenReply(ctx: ReplayContext, params: URLSearchParams): Reply {
  return errorReply(ctx, params, badToken());
}

const badToken = (): OaiError =>
  new OaiError('badResumptionToken', 'The resumptionToken supplied is illegal for this repository');

export async function handleOai(ctx: ReplayContext, params: URLSearchParams): Promise<Reply> {
  try {
    const verb = checkArguments(params);
    switch (verb) {
      case 'Identify':
        return envelope(ctx, requestAttributes(params), identifyXml(ctx));
      case 'ListMetadataFormats':
        return envelope(ctx, requestAttributes(params), await metadataFormatsXml(params));
      case 'ListSets':
        if (params.has('resumptionToken')) throw badToken();
        return envelope(ctx, requestAttributes(params), listSetsXml());
      case 'GetRecord':
        return envelope(ctx, requestAttributes(params), await getRecordXml(params));
      default:
        return envelope(ctx, requestAttributes(params), await listXml(ctx, verb, params));
    }
  } catch (error) {
    if (error instanceof OaiError) return errorReply(ctx, params, error);
    throw error;
  }
}

function checkArguments(params: URLSearchParams): string {
  const names = [...params.keys()];
  const repeated = names.find((name, index) => names.indexOf(name) !== index);
  if (repeated !== undefined) throw new OaiError('badArgument', `Argument '${repeated}' repeated.`);
  const verb = params.get('verb');
  if (verb === null) throw new OaiError('badVerb', 'Bad verb. Verb not specified.');
  const allowed = ARGUMENTS[verb];
  if (!allowed) throw new OaiError('badVerb', `Bad verb. Verb '${verb}' not implemented.`);
  const exclusive = params.has('resumptionToken');
  for (const name of names) {
    if (name === 'verb') continue;
    if (exclusive && name !== 'resumptionToken') {
      throw new OaiError('badArgument', `Verb '${verb}', argument 'resumptionToken' is exclusive.`);
    }
    if (!allowed.required.includes(name) && !allowed.optional.includes(name)) {
      throw new OaiError('badArgument', `Verb '${verb}', illegal argument '${name}'.`);
    }
  }
  if (!exclusive) {
    const missing = allowed.required.find((name) => !params.has(name));
    if (missing !== undefined) {
      throw new OaiError('badArgument', `Verb '${verb}', argument '${missing}' missing.`);
    }
  }
  return verb;
}

function checkPrefix(value: string | null): MetadataPrefix {
  const prefix = METADATA_PREFIXES.find((known) => known === value);
  if (!prefix) {
    throw new OaiError('cannotDisseminateFormat', `Metadata format '${value ?? ''}' is not supported.`);
  }
  return prefix;
}

async function paperFor(identifier: string): Promise<CorpusPaper> {
  const id = identifier.startsWith('oai:arXiv.org:') ? identifier.slice('oai:arXiv.org:'.length) : null;
  const paper = id === null ? undefined : (await corpusIndex()).byId.get(id);
  if (!paper) {
    throw new OaiError(
      'idDoesNotExist',
      `Identifier '${identifier}' has correct form but does not correspond to an item in this repository`,
    );
  }
  return paper;
}

async function getRecordXml(params: URLSearchParams): Promise<string> {
  const prefix = checkPrefix(params.get('metadataPrefix'));
  const paper = await paperFor(params.get('identifier') ?? '');
  return `<GetRecord>\n${recordXml(paper, prefix)}</GetRecord>\n`;
}

function queryFrom(verb: ListVerb, params: URLSearchParams): ListQuery {
  const prefix = checkPrefix(params.get('metadataPrefix'));
  const from = params.get('from');
  const until = params.get('until');
  // arXiv's granularity is the day, so a full timestamp is as wrong as a malformed date.
  for (const [name, value] of [
    ['from', from],
    ['until', until],
  ] as const) {
    if (value !== null && !isDay(value)) {
      throw new OaiError('badArgument', `Verb '${verb}', bad date format for '${name}': '${value}'.`);
    }
  }
  if (from !== null && until !== null && from > until) {
    throw new OaiError('badArgument', `Verb '${verb}', 'from' is later than 'until'.`);
  }
  const set = params.get('set');
  if (set !== null && !isKnownSet(set)) {
    throw new OaiError('noRecordsMatch', `Set argument doesn't match any sets. The setSpec was '${set}'`);
  }
  return { verb, prefix, set, from, until };
}

async function listXml(ctx: ReplayContext, verb: string, params: URLSearchParams): Promise<string> {
  const listVerb: ListVerb = verb === 'ListIdentifiers' ? 'ListIdentifiers' : 'ListRecords';
  const token = params.get('resumptionToken');
  let query: ListQuery;
  let offset = 0;
  if (token !== null) {
    const state = decodeToken(token);
    if (!state || state.generation !== ctx.tokenGeneration || state.verb !== listVerb) throw badToken();
    query = state;
    offset = state.offset;
  } else {
    query = queryFrom(listVerb, params);
  }

  const matches = await matchingPapers(query);
  if (matches.length === 0) throw new OaiError('noRecordsMatch', 'No records match the query.');
  if (offset >= matches.length) throw badToken();

  const page = matches.slice(offset, offset + ctx.oaiPageSize);
  const items = page
    .map((paper) => (listVerb === 'ListRecords' ? recordXml(paper, query.prefix) : recordHeaderXml(paper)))
    .join('');
  const next = offset + page.length;
  const counts = `cursor="${offset}" completeListSize="${matches.length}"`;
  let tokenXml = '';
  if (next < matches.length) {
    const value = encodeToken({ ...query, offset: next, generation: ctx.tokenGeneration });
    tokenXml = `<resumptionToken ${counts}>${value}</resumptionToken>\n`;
  } else if (offset > 0) {
    // The last page of a multi-page list ends with an empty token, which is how harvesters know to stop.
    tokenXml = `<resumptionToken ${counts}></resumptionToken>\n`;
  }
  return `<${listVerb}>\n${items}${tokenXml}</${listVerb}>\n`;
}

/** Recent selections, so paging through a list filters the corpus once rather than once per page. */
const selections = new Map<string, Promise<readonly CorpusPaper[]>>();

function matchingPapers(query: ListQuery): Promise<readonly CorpusPaper[]> {
  const key = JSON.stringify([query.set, query.from, query.until]);
  let selection = selections.get(key);
  if (!selection) {
    selection = corpusIndex().then(({ byDatestamp }) =>
      byDatestamp.filter(
        (paper) =>
          (query.from === null || paper.date >= query.from) &&
          (query.until === null || paper.date <= query.until) &&
          (query.set === null || inSet(paper, query.set)),
      ),
    );
    selections.set(key, selection);
    selection.catch(() => selections.delete(key));
    if (selections.size > 16) selections.delete(selections.keys().next().value ?? key);
  }
  return selection;
}

function identifyXml(ctx: ReplayContext): string {
  return (
    '<Identify>\n' +
    '<repositoryName>arXiv</repositoryName>\n' +
    `<baseURL>${escapeAttr(ctx.oaiUrl)}</baseURL>\n` +
    '<protocolVersion>2.0</protocolVersion>\n' +
    '<adminEmail>help@arxiv.org</adminEmail>\n' +
    '<earliestDatestamp>2007-05-23</earliestDatestamp>\n' +
    '<deletedRecord>persistent</deletedRecord>\n' +
    '<granularity>YYYY-MM-DD</granularity>\n' +
    '</Identify>\n'
  );
}

async function metadataFormatsXml(params: URLSearchParams): Promise<string> {
  const identifier = params.get('identifier');
  if (identifier !== null) await paperFor(identifier);
  const formats = METADATA_PREFIXES.map(
    (prefix) =>
      '<metadataFormat>\n' +
      `<metadataPrefix>${prefix}</metadataPrefix>\n` +
      `<schema>http://arxiv.org/OAI/${prefix}.xsd</schema>\n` +
      `<metadataNamespace>http://arxiv.org/OAI/${prefix}/</metadataNamespace>\n` +
      '</metadataFormat>\n',
  ).join('');
  return `<ListMetadataFormats>\n${formats}</ListMetadataFormats>\n`;
}

function listSetsXml(): string {
  const sets: Array<[string, string]> = [
    ['cs', 'Computer Science'],
    ['econ', 'Economics'],
    ['eess', 'Electrical Engineering and Systems Science'],
    ['math', 'Mathematics'],
    ['physics', 'Physics'],
    ['q-bio', 'Quantitative Biology'],
    ['q-fin', 'Quantitative Finance'],
    ['stat', 'Statistics'],
  ];
  const items = sets
    .map(([spec, name]) => `<set>\n<setSpec>${spec}</setSpec>\n<setName>${name}</setName>\n</set>\n`)
    .join('');
  return `<ListSets>\n${items}</ListSets>\n`;
}
