/**
 * The condition language of flows (`if`, `exit_if`, collect rejections), in peggy's PEG syntax.
 * Precedence from loosest to tightest: `or`, `and`, `not`, comparison.
 */
export const CONDITION_GRAMMAR = String.raw`
Start = _ e:Or _ { return e; }

Or = head:And tail:(__ "or"i !IdentChar _ And)* {
  return tail.reduce((left, t) => ({ type: 'or', left, right: t[4] }), head);
}
And = head:Not tail:(__ "and"i !IdentChar _ Not)* {
  return tail.reduce((left, t) => ({ type: 'and', left, right: t[4] }), head);
}
Not = "not"i !IdentChar _ operand:Not { return { type: 'not', operand }; }
    / Comparison

Comparison = left:Operand _ op:Operator _ right:Operand { return { type: 'compare', op, left, right }; }
           / Operand

Operator = "==" { return '=='; }
         / "!=" { return '!='; }
         / "<=" { return '<='; }
         / ">=" { return '>='; }
         / "<" { return '<'; }
         / ">" { return '>'; }
         / "=" { return '=='; }
         / "is"i __ "not"i !IdentChar { return 'is not'; }
         / "is"i !IdentChar { return 'is'; }
         / "not"i __ "in"i !IdentChar { return 'not in'; }
         / "in"i !IdentChar { return 'in'; }
         / "contains"i !IdentChar { return 'contains'; }
         / "matches"i !IdentChar { return 'matches'; }

Operand = "(" _ e:Or _ ")" { return e; }
        / List
        / Literal
        / Reference
        / w:Word { error('"' + w + '" is not a value: write slots.' + w + ' for a slot or "' + w + '" for text'); }

List = open:[[({] _ items:(Operand (_ "," _ Operand)*)? _ [\])}] {
  if (!items) return { type: 'list', items: [] };
  return { type: 'list', items: [items[0], ...items[1].map((t) => t[3])] };
}

Reference = "slots" "." name:Word { return { type: 'slot', name, offset: offset() + 6 }; }
          / "context" path:("." Word)+ { return { type: 'context', path: path.map((p) => p[1]) }; }

Literal = v:Keyword !IdentChar { return { type: 'literal', value: v }; }
        / n:Number { return { type: 'literal', value: n }; }
        / s:String { return { type: 'literal', value: s }; }

Keyword = ("true" / "True") { return true; }
        / ("false" / "False") { return false; }
        / ("null" / "None") { return null; }

Number = text:$("-"? [0-9]+ ("." [0-9]+)?) !IdentChar { return Number(text); }

// As pypred, Rasa's condition parser: the text between the quotes as written, backslashes
// included (\d stays \d for matches), so a string cannot hold its own quote character.
String = '"' chars:$[^"]* '"' { return chars; }
       / "'" chars:$[^']* "'" { return chars; }

Word = $(IdentStart IdentChar*)
IdentStart = [A-Za-z_]
IdentChar = [A-Za-z0-9_\-]

_ "whitespace" = [ \t\r\n]*
__ "whitespace" = [ \t\r\n]+
`;
