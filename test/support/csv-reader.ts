// An RFC 4180 reader written for the tests, independently of src/output/csv.ts (a character state
// machine, not the encoder run backwards): records of fields, quoted fields with doubled quotes
// and line breaks inside, records ended by CRLF. Strict: anything RFC 4180 does not allow (a bare
// LF or CR outside quotes, a quote inside an unquoted field, text after a closing quote, a last
// record without its CRLF) throws, so a test fails on output a strict importer would refuse.
export function readCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let i = 0;
  let quoted = false;
  let fieldStart = true;
  const endField = (): void => {
    record.push(field);
    field = '';
    fieldStart = true;
  };
  while (i < text.length) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        const next = text[i];
        if (next !== ',' && next !== '\r' && next !== undefined) throw new Error(`text after a closing quote at ${i}`);
        continue;
      }
      field += c;
      i++;
      continue;
    }
    if (c === '"') {
      if (!fieldStart) throw new Error(`a quote inside an unquoted field at ${i}`);
      quoted = true;
      fieldStart = false;
      i++;
      continue;
    }
    if (c === ',') {
      endField();
      i++;
      continue;
    }
    if (c === '\r') {
      if (text[i + 1] !== '\n') throw new Error(`a CR without LF at ${i}`);
      endField();
      records.push(record);
      record = [];
      i += 2;
      continue;
    }
    if (c === '\n') throw new Error(`a bare LF at ${i}`);
    field += c;
    fieldStart = false;
    i++;
  }
  if (quoted) throw new Error('an unterminated quoted field');
  if (field !== '' || record.length > 0) throw new Error('the last record has no CRLF');
  return records;
}
