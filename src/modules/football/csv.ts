// A small RFC 4180 CSV parser: quoted fields, doubled quotes, CR/LF or LF line ends, a BOM.
// Each record keeps the line it started on, so a skipped row can be reported by line.

export interface CsvRecord {
  line: number;
  fields: string[];
}

/**
 * Parses a CSV text. The separator is a comma, or a tab when the first line has tabs and no comma
 * (football-data.co.uk has served one of its fixtures files tab-separated).
 */
export function parseCsv(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const firstLine = source.slice(0, source.search(/[\r\n]|$/));
  const separator = firstLine.includes('\t') && !firstLine.includes(',') ? '\t' : ',';
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let recordLine = 1;
  let sawAnything = false;

  const endField = () => {
    fields.push(field);
    field = '';
  };
  const endRecord = () => {
    endField();
    records.push({ line: recordLine, fields });
    fields = [];
    sawAnything = false;
  };

  for (let i = 0; i < source.length; i++) {
    const char = source[i]!;
    if (quoted) {
      if (char === '"') {
        if (source[i + 1] === '"') {
          field += '"';
          i++;
        } else {
          quoted = false;
        }
      } else {
        if (char === '\n') line++;
        field += char;
      }
      continue;
    }
    if (char === '"' && field === '') {
      quoted = true;
      sawAnything = true;
    } else if (char === separator) {
      endField();
      sawAnything = true;
    } else if (char === '\r' && source[i + 1] === '\n') {
      // the \n that follows ends the record
    } else if (char === '\n' || char === '\r') {
      endRecord();
      line++;
      recordLine = line;
    } else {
      field += char;
      sawAnything = true;
    }
  }
  if (sawAnything || field !== '' || fields.length > 0) endRecord();
  return records;
}
