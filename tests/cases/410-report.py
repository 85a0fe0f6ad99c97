#!/usr/bin/env python3
"""The checks of tests/cases/410-report.sh.

  410-report.py PAGE.html EXPLAIN.txt   reads a --report page with html.parser and prints, per
                                        query, what it shows; EXPLAIN.txt is --explain's output
                                        for the same script, whose plan lines the page's must be
  410-report.py --png SHOT.png NAME     looks at Chromium's screenshot of a page

Everything printed is stable across machines: counts and facts, no sizes or timings.
"""
import os
import re
import struct
import sys
import zlib
from html.parser import HTMLParser

VOID = {'meta', 'br', 'hr', 'img', 'input', 'link', 'area', 'base', 'col', 'embed', 'source',
        'track', 'wbr'}
FORBIDDEN = {'script', 'link', 'img', 'iframe', 'object', 'embed', 'base', 'form', 'input',
             'audio', 'video', 'source', 'image', 'use', 'foreignobject'}
LEFT, RIGHT = (0x2f, 0x6f, 0xb3), (0xdd, 0x7a, 0x1c)


class Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []          # [tag, classes, texts]
        self.problems = []
        self.queries = []
        self.loose_errors = []
        self.q = None
        self.svg = None

    # -- structure ------------------------------------------------------------------------
    def check(self, tag, attrs):
        if tag in FORBIDDEN:
            self.problems.append(f'<{tag}> element')
        for k, v in attrs:
            v = v or ''
            if k in ('src', 'href', 'xlink:href', 'srcset', 'action', 'xmlns:xlink') or k.startswith('on'):
                self.problems.append(f'{k}= attribute on <{tag}>')
            if re.search(r'https?://|url\(|@import|javascript:', v, re.I):
                self.problems.append(f'external reference in {k}= of <{tag}>')

    def inside(self, tag, cls=None):
        return any(e[0] == tag and (cls is None or cls in e[1]) for e in self.stack)

    def handle_starttag(self, tag, attrs):
        self.check(tag, attrs)
        cls = set((dict(attrs).get('class') or '').split())
        if tag in VOID:
            self.opened(tag, cls)
            return
        self.stack.append([tag, cls, []])
        self.opened(tag, cls)

    def handle_startendtag(self, tag, attrs):
        self.check(tag, attrs)
        cls = set((dict(attrs).get('class') or '').split())
        self.opened(tag, cls)
        self.closed(tag, cls, '')

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1][0] != tag:
            self.problems.append(f'</{tag}> closes <{self.stack[-1][0] if self.stack else "nothing"}>')
            return
        t, cls, texts = self.stack.pop()
        self.closed(t, cls, ''.join(texts))

    def handle_data(self, data):
        for e in self.stack:
            e[2].append(data)

    # -- content --------------------------------------------------------------------------
    def opened(self, tag, cls):
        if tag == 'section' and 'query' in cls:
            self.q = {'where': '', 'inputs': [], 'result': None, 'more': [], 'plan': [],
                      'timelines': [], 'error': None, 'rewrites': 0, 'cells': []}
        elif tag == 'rect' and 'dens' in cls and self.q and self.q['timelines']:
            t = self.q['timelines'][-1]
            k = 'density left bins' if 'left' in cls else 'density right bins'
            t[k] = t.get(k, 0) + 1
        elif tag == 'svg' and 'timeline' in cls:
            self.svg = {'kind': 'ijoin' if 'ijoin' in cls else 'asof' if 'asof' in cls else '?'}
        elif self.svg is not None and not self.inside('g', 'legend'):
            if tag == 'rect' and 'bar' in cls:
                side = 'left' if 'left' in cls else 'right'
                self.svg[side] = self.svg.get(side, 0) + 1
                if 'matched' in cls:
                    self.svg[side + ' solid'] = self.svg.get(side + ' solid', 0) + 1
            for name, want in (('pairs', ('path', 'pair')), ('points', ('circle', 'point')),
                               ('links', ('line', 'link'))):
                if tag == want[0] and want[1] in cls:
                    self.svg[name] = self.svg.get(name, 0) + 1
            if tag == 'circle' and 'idle' in cls:
                self.svg['idle points'] = self.svg.get('idle points', 0) + 1
            if tag == 'path' and 'probe' in cls:
                k = 'matched probes' if 'matched' in cls else 'unmatched probes'
                self.svg[k] = self.svg.get(k, 0) + 1

    def closed(self, tag, cls, text):
        q = self.q
        if tag == 'section' and 'query' in cls:
            self.queries.append(q)
            self.q = None
        elif q is None:
            if tag == 'pre' and 'error' in cls:
                self.loose_errors.append(text)
        elif tag == 'span' and 'where' in cls:
            q['where'] = text
        elif tag == 'figcaption' and self.inside('figure', 'rel'):
            m = re.match(r'(.*?) (\d+) rows?', text)
            if self.inside('figure', 'result'):
                q['result'] = int(m.group(2))
            else:
                q['inputs'].append(text)
        elif tag == 'tr' and 'more' in cls:
            q['more'].append(text.strip())
        elif tag == 'td' and self.inside('table', 'data'):
            q['cells'].append(text)
        elif tag == 'li' and self.inside('ul', 'rewrites'):
            q['rewrites'] += 1
        elif tag == 'span' and 'tree' in cls:
            q['tree'] = text
        elif tag == 'td' and self.inside('table', 'plan'):
            q.setdefault('row', []).append(text)
        elif tag == 'tr' and self.inside('table', 'plan') and q.get('row'):
            op, est, act, *fig = q.pop('row')
            tree = q.pop('tree', '')
            q['plan'].append((tree, op[len(tree):], est, act))
            q.setdefault('figures', []).append((act, fig))
        elif tag == 'svg' and self.svg is not None:
            q['timelines'].append(self.svg)
            self.svg = None
        elif tag == 'p' and 'none' in cls and self.inside('figure', 'timeline'):
            q['timelines'].append({'kind': 'none', 'why': text})
        elif tag == 'figcaption' and self.inside('figure', 'timeline') and q['timelines']:
            t = q['timelines'][-1]
            if 'caption' not in t and t['kind'] != 'none' and 'title' in t:
                t['caption'] = text
            elif 'title' not in t or t['kind'] == 'none':
                pass
        elif tag == 'b' and self.inside('figure', 'timeline'):
            q['next title'] = text
        elif tag == 'pre' and 'error' in cls:
            q['error'] = text
        if tag == 'svg' or (tag == 'p' and 'none' in cls):
            if q and q['timelines'] and 'title' not in q['timelines'][-1]:
                q['timelines'][-1]['title'] = q.pop('next title', '?')


def explain_plans(path):
    """The physical plan lines of every query in --explain's output."""
    plans, cur = [], None
    for line in open(path, encoding='utf-8').read().split('\n'):
        if line == 'Physical plan':
            cur = []
            plans.append(cur)
        elif cur is not None:
            if line == '':
                cur = None
            else:
                cur.append(line)
    return plans


def share_ok(peak, pct, limit, unit):
    """Whether "N% of LIMIT" is the peak's share of the limit (to the rounding of both)."""
    num, u = peak.split(' ')
    p = float(num) * {'B': 1, 'kB': 1e3, 'MB': 1e6, 'GB': 1e9, 'TB': 1e12}[u]
    lim = float(limit) * {None: 1, 'Ki': 2**10, 'Mi': 2**20, 'Gi': 2**30, 'Ti': 2**40}[unit]
    share = 100 * p / lim
    return share < 1 if pct == '<1' else abs(share - int(pct)) <= 1.5


def figures(rows):
    """Whether every operator that ran shows its time, self time (at most its time) and peak
    memory, as EXPLAIN ANALYZE prints them; the values vary from run to run."""
    bad = []
    for act, fig in rows:
        if act == '—':
            if fig != ['—'] * 3:
                bad.append('not run: ' + ' '.join(fig))
            continue
        if len(fig) != 3:
            bad.append(f'{len(fig)} figures')
            continue
        t, s, m = fig
        mt, ms = re.fullmatch(r'(\d+\.\d{3}) ms', t), re.fullmatch(r'(\d+\.\d{3}) ms', s)
        if not mt or not ms or float(ms.group(1)) > float(mt.group(1)):
            bad.append(f'time {t}, self {s}')
        pm = re.fullmatch(r'(\d+ B|\d+\.\d (?:kB|MB|GB|TB))(?: \((<1|\d+)% of (\d+(?:\.\d)?) ([KMGT]i)?B\))?', m)
        if not pm:
            bad.append(f'peak {m}')
        elif pm.group(2) and not share_ok(pm.group(1), pm.group(2), pm.group(3), pm.group(4)):
            bad.append(f'share {m}')
    return ('BAD: ' + '; '.join(bad)) if bad else f'on all {len(rows)} operators'


def check_page(html_path, explain_path):
    text = open(html_path, encoding='utf-8').read()
    p = Page()
    p.feed(text)
    p.close()
    if p.stack:
        p.problems.append('unclosed: ' + ' '.join(e[0] for e in p.stack))
    for bad in ('http://', 'https://', '<script', 'url(', '@import'):
        if bad in text.lower():
            p.problems.append(f'"{bad}" in the page')
    if not text.startswith('<!DOCTYPE html>') or not text.rstrip().endswith('</html>'):
        p.problems.append('not a whole page')
    print('page: ' + ('self-contained, tags balanced' if not p.problems else 'PROBLEMS: ' + '; '.join(sorted(set(p.problems)))))
    plans = explain_plans(explain_path)
    for i, q in enumerate(p.queries):
        where = os.path.basename(q['where'])
        line = f'q{i + 1} {where}: inputs {", ".join(q["inputs"]) or "-"}'
        if q['error'] is not None:
            msg = q['error'].split('\n')[0]
            print(f'{line}; error: {msg.split(": error: ")[-1]}')
            continue
        root = q['plan'][0][3] if q['plan'] else '?'
        line += f'; result {q["result"]} row{"" if q["result"] == 1 else "s"}, root actual {root}'
        if str(q['result']) != root:
            line += ' (MISMATCH)'
        if q['more']:
            line += '; ' + ', '.join(q['more'])
        print(line)
        mine = [f'{t}{op}  {est} rows' for t, op, est, act in q['plan']]
        want = plans[i] if i < len(plans) else []
        print(f'   plan: {len(mine)} operators, ' + ('as --explain prints them' if mine == want else
              'DIFFERENT from --explain:\n     ' + '\n     '.join(mine) + '\n   --explain:\n     ' + '\n     '.join(want)))
        print(f'   actual rows: {" ".join(a for _, _, _, a in q["plan"])}; rewrites: {q["rewrites"]}')
        print('   time, self, peak memory: ' + figures(q.get('figures', [])))
        joins = sum(1 for _, op, _, _ in q['plan'] if op.startswith(('IntervalJoin', 'AsOfJoin')))
        if joins != len(q['timelines']):
            print(f'   {joins} joins but {len(q["timelines"])} timelines')
        for t in q['timelines']:
            title = t.get('title', '?').split(' [')[0].split(' (')[0]
            if t['kind'] == 'none':
                print(f'   {title}: {t["why"]}')
                continue
            counts = ', '.join(f'{k} {v}' for k, v in sorted(t.items())
                               if k not in ('kind', 'title', 'caption'))
            print(f'   {title}: {t["kind"]} svg: {counts}')
            cap = t.get('caption', '')
            for pat in (r'the first \d+ of \d+', r'TEXT holding ISO-8601', r'WITHIN \S+ window',
                        r'\d+ rows? with a NULL endpoint', r'only the rows of the drawn pairs',
                        r'Lines: [^;]*\(the focus; \d+ pairs? in all\)',
                        r'the first \d+ of the \d+ probes with .*? are drawn'):
                m = re.search(pat, cap)
                if m:
                    print(f'     caption says: {m.group(0)}')
    if len(plans) != sum(1 for q in p.queries if q['error'] is None):
        print(f'   --explain printed {len(plans)} plans')
    for e in p.loose_errors:
        print('error: ' + e.split('\n')[0].split(': error: ')[-1])
    if 'cells' in (p.queries[0] if p.queries else {}):
        odd = [c for q in p.queries for c in q['cells'] if '<' in c or '&' in c]
        if odd:
            print('   cells with markup characters, as text: ' + ' | '.join(odd))


def read_png(path):
    data = open(path, 'rb').read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        raise ValueError('not a PNG')
    pos, idat = 8, []
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        if kind == b'IHDR':
            w, h, depth, ctype, _, _, interlace = struct.unpack('>IIBBBBB', data[pos + 8:pos + 21])
            if depth != 8 or ctype not in (2, 6) or interlace:
                raise ValueError(f'PNG of depth {depth}, colour type {ctype}')
        elif kind == b'IDAT':
            idat.append(data[pos + 8:pos + 8 + n])
        pos += 12 + n
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(b''.join(idat))
    stride = w * bpp
    lo7 = int.from_bytes(b'\x7f' * stride, 'little')
    hi1 = int.from_bytes(b'\x80' * stride, 'little')
    prev, rows = bytes(stride), []
    for r in range(h):
        f = raw[r * (stride + 1)]
        line = raw[r * (stride + 1) + 1:(r + 1) * (stride + 1)]
        if f == 2:  # Up, bytewise with big integers (carries never cross a byte)
            x, y = int.from_bytes(line, 'little'), int.from_bytes(prev, 'little')
            line = (((x & lo7) + (y & lo7)) ^ ((x ^ y) & hi1)).to_bytes(stride, 'little')
        elif f != 0:
            line = bytearray(line)
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                if f == 1:
                    line[i] = (line[i] + a) & 255
                    continue
                b = prev[i]
                if f == 3:
                    line[i] = (line[i] + ((a + b) >> 1)) & 255
                    continue
                c = prev[i - bpp] if i >= bpp else 0
                pa, pb = abs(b - c), abs(a - c)
                pc = abs(a + b - 2 * c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            line = bytes(line)
        rows.append(line)
        prev = line
    return w, h, bpp, rows, len(data)


def check_png(path, name):
    try:
        w, h, bpp, rows, size = read_png(path)
    except (OSError, ValueError, zlib.error) as e:
        print(f'{name}.png: unreadable ({e})')
        return
    colours, total = {}, 0
    for line in rows[::4]:
        for i in range(0, len(line), bpp):
            k = line[i:i + 3]
            colours[k] = colours.get(k, 0) + 1
            total += 1
    background = max(colours.values()) / total
    # pixels of the bars' (probes', points') colours: the legend's swatches alone have fewer
    left, right = (sum(line.count(bytes(rgb)) for line in rows) for rgb in (LEFT, RIGHT))
    print(f'{name}.png: {w}x{h}, '
          f'{"over" if size > 30000 else "UNDER"} 30 KB, '
          f'{"over" if len(colours) > 100 else "UNDER"} 100 colours, '
          f'background {"under" if background < 0.9 else "OVER"} 90%, '
          f'left colour {"drawn" if left > 150 else "MISSING"}, '
          f'right colour {"drawn" if right > 150 else "MISSING"}')


if __name__ == '__main__':
    if sys.argv[1] == '--png':
        check_png(sys.argv[2], sys.argv[3])
    else:
        check_page(sys.argv[1], sys.argv[2])
