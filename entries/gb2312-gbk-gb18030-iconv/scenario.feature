# language: zh-CN
@requires:iconv @requires:python3 @requires:sh @requires:od @requires:wc @requires:cmp @requires:head @requires:grep @requires:test @requires:file
功能: 导出 GB2312 文件时“镕”“喆”“𠮷”报错或被悄悄丢掉
  用 Debian 12 的 glibc iconv（2.36）和 /usr/bin/python3（3.11.2）转换同一份 UTF-8 客户名单，
  检查每个方案记录的现象，以及最终方案的严格转换、往返比较和它的副作用。

  背景:
    假如文件「customers.csv」的内容为：
      """
      id,name
      1,朱镕基
      2,王喆
      3,张堃
      4,刘犇
      5,𠮷野家

      """
    而且文件「export.py」的内容为：
      """
      import sys

      src, dst, encoding = sys.argv[1:4]
      errors = sys.argv[4] if len(sys.argv) > 4 else "strict"
      with open(src, encoding="utf-8") as fin, \
           open(dst, "w", encoding=encoding, errors=errors, newline="") as fout:
          for line in fin:
              fout.write(line)
      with open(dst, encoding=encoding) as f:
          print(f.read(), end="")
      """

  @attempt-1
  场景: 方案 1 —— 直接转 GB2312：iconv 在“镕”处停下，Python 抛出 UnicodeEncodeError，都留下半截文件
    当运行「wc -c customers.csv」
    那么标准输出匹配「^60 customers\.csv$」
    当运行「iconv -f UTF-8 -t GB2312 -o out.csv customers.csv」
    那么退出码为1
    而且标准错误包含「iconv: illegal input sequence at position 13」
    当运行「wc -c out.csv」
    那么标准输出匹配「^12 out\.csv$」
    当运行「head -c 13 customers.csv」
    那么标准输出包含：
      """
      id,name
      1,朱
      """
    而且标准输出不包含「镕」
    当运行「python3 export.py customers.csv out.csv gb2312」
    那么退出码为1
    而且标准错误包含「UnicodeEncodeError: 'gb2312' codec can't encode character '\u9555' in position 3: illegal multibyte sequence」
    当运行「wc -c out.csv」
    那么标准输出匹配「^8 out\.csv$」
    当运行「grep -c "cannot convert" /usr/bin/iconv」
    那么退出码为1
    而且标准输出包含「0」

  @attempt-2
  场景: 方案 2 —— //IGNORE 和 -c 把转不了的字删掉：//IGNORE 退出码 1 但位置报成文件末尾，-c 退出码 0 且不提示
    当运行「sh -c 'iconv -f UTF-8 -t GB2312//IGNORE customers.csv > out.csv; echo "iconv 退出码 $?"; iconv -f GB2312 -t UTF-8 out.csv'」
    那么标准错误包含「iconv: illegal input sequence at position 60」
    而且标准输出包含「iconv 退出码 1」
    而且标准输出包含：
      """
      1,朱基
      2,王
      3,张
      4,刘
      5,野家
      """
    当运行「sh -c 'iconv -c -f UTF-8 -t GB2312 customers.csv > out.csv; echo "iconv 退出码 $?"; iconv -f GB2312 -t UTF-8 out.csv'」
    那么标准错误为空
    而且标准输出包含「iconv 退出码 0」
    而且标准输出包含：
      """
      1,朱基
      2,王
      3,张
      4,刘
      5,野家
      """
    当运行「python3 export.py customers.csv out.csv gb2312 ignore」
    那么退出码为0
    而且标准错误为空
    而且标准输出包含：
      """
      1,朱基
      2,王
      3,张
      4,刘
      5,野家
      """

  @attempt-3
  场景: 方案 3 —— //TRANSLIT 和 errors='replace' 把转不了的字换成问号，退出码 0
    当运行「sh -c 'iconv -f UTF-8 -t GB2312//TRANSLIT customers.csv > out.csv; echo "iconv 退出码 $?"; iconv -f GB2312 -t UTF-8 out.csv'」
    那么标准错误为空
    而且标准输出包含「iconv 退出码 0」
    而且标准输出包含：
      """
      1,朱?基
      2,王?
      3,张?
      4,刘?
      5,?野家
      """
    当运行「python3 export.py customers.csv out.csv gb2312 replace」
    那么退出码为0
    而且标准输出包含：
      """
      1,朱?基
      2,王?
      3,张?
      4,刘?
      5,?野家
      """

  @attempt-4
  场景: 方案 4 —— GBK 收下镕、喆、堃、犇，扩展 B 区的“𠮷”照样报错
    假如文件「bytes.py」的内容为：
      """
      import sys

      for ch in sys.argv[1]:
          cells = [f"U+{ord(ch):04X}"]
          for enc in ("utf-8", "gb2312", "gbk", "gb18030"):
              try:
                  cells.append(ch.encode(enc).hex(" "))
              except UnicodeEncodeError:
                  cells.append("-")
          print(ch, " | ".join(cells))
      """
    而且文件「coverage.py」的内容为：
      """
      blocks = [(0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0x20000, 0x2A6DF), (0xF900, 0xFAFF)]
      total = sum(b - a + 1 for a, b in blocks)
      for enc in ("gb2312", "gbk", "gb18030"):
          n = 0
          for a, b in blocks:
              for cp in range(a, b + 1):
                  try:
                      chr(cp).encode(enc)
                      n += 1
                  except UnicodeEncodeError:
                      pass
          print(f"{enc}: {n}/{total}")
      scalars = [cp for cp in range(0x110000) if not 0xD800 <= cp <= 0xDFFF]
      failed = 0
      for cp in scalars:
          try:
              chr(cp).encode("gb18030")
          except UnicodeEncodeError:
              failed += 1
      print(f"gb18030 全部标量值: {len(scalars)} 个，失败 {failed} 个")
      """
    当运行「python3 bytes.py 朱镕喆堃犇𠮷」
    那么标准输出包含：
      """
      朱 U+6731 | e6 9c b1 | d6 ec | d6 ec | d6 ec
      镕 U+9555 | e9 95 95 | - | e9 46 | e9 46
      喆 U+5586 | e5 96 86 | - | 86 b4 | 86 b4
      堃 U+5803 | e5 a0 83 | - | 88 d2 | 88 d2
      犇 U+7287 | e7 8a 87 | - | a0 c4 | a0 c4
      𠮷 U+20BB7 | f0 a0 ae b7 | - | - | 95 34 b2 35
      """
    当运行「sh -c 'printf 镕 | iconv -f UTF-8 -t GBK | od -An -tx1'」
    那么标准输出包含「 e9 46」
    当运行「iconv -f UTF-8 -t GBK -o out.csv customers.csv」
    那么退出码为1
    而且标准错误包含「iconv: illegal input sequence at position 49」
    当运行「python3 export.py customers.csv out.csv gbk」
    那么退出码为1
    而且标准错误包含「UnicodeEncodeError: 'gbk' codec can't encode character '\U00020bb7' in position 2: illegal multibyte sequence」
    当运行「python3 export.py customers.csv out.csv cp936」
    那么退出码为1
    而且标准错误包含「UnicodeEncodeError: 'gbk' codec can't encode character '\U00020bb7' in position 2: illegal multibyte sequence」
    当运行「python3 coverage.py」
    那么标准输出包含：
      """
      gb2312: 6763/70816
      gbk: 20923/70816
      gb18030: 70816/70816
      gb18030 全部标量值: 1112064 个，失败 0 个
      """

  @attempt-5
  场景: 方案 5 —— GB18030 全部转换成功，往返一致，GBK 范围内字节不变
    当运行「sh -c 'printf 𠮷 | iconv -f UTF-8 -t GB18030 | od -An -tx1'」
    那么标准输出包含「 95 34 b2 35」
    当运行「sh -c 'iconv -f UTF-8 -t GB18030 customers.csv > out.csv; echo "iconv 退出码 $?"; iconv -f GB18030 -t UTF-8 out.csv | cmp - customers.csv && echo 往返一致'」
    那么标准错误为空
    而且标准输出包含「iconv 退出码 0」
    而且标准输出包含「往返一致」
    当运行「python3 export.py customers.csv out.csv gb18030」
    那么退出码为0
    而且标准输出包含：
      """
      1,朱镕基
      2,王喆
      3,张堃
      4,刘犇
      5,𠮷野家
      """
    当运行「sh -c 'iconv -f UTF-8 -t GB18030 customers.csv | cmp - out.csv && echo 与 iconv 的输出逐字节相同'」
    那么标准输出包含「与 iconv 的输出逐字节相同」
    当运行「sh -c 'head -n 5 customers.csv | iconv -f UTF-8 -t GBK > a.gbk && head -n 5 customers.csv | iconv -f UTF-8 -t GB18030 > a.gb18030 && cmp a.gbk a.gb18030 && echo 前五行字节相同'」
    那么退出码为0
    而且标准输出包含「前五行字节相同」

  @fix
  场景: 最终方案 —— to-legacy.sh 严格转换并做往返比较，GB2312 和 //TRANSLIT 都会让导出失败
    假如文件「to-legacy.sh」的内容为：
      """
      #!/bin/sh
      # 用法：sh to-legacy.sh 输入文件(UTF-8) 输出文件 [目标编码，默认 GB18030]
      set -eu
      src=$1
      dst=$2
      enc=${3:-GB18030}
      tmp="$dst.tmp"
      # 1. 严格转换：不加 -c、//IGNORE、//TRANSLIT，转不了就非零退出
      if ! iconv -f UTF-8 -t "$enc" "$src" > "$tmp"; then
          rm -f "$tmp"
          echo "转换失败：$src 里有 $enc 表示不了的字符" >&2
          exit 1
      fi
      # 2. 往返比较：转回 UTF-8 必须和原文件逐字节相同
      if ! iconv -f "$enc" -t UTF-8 "$tmp" | cmp -s - "$src"; then
          rm -f "$tmp"
          echo "往返不一致：$enc 的输出转回 UTF-8 后和 $src 不同" >&2
          exit 1
      fi
      mv "$tmp" "$dst"
      echo "OK $src -> $dst ($enc, $(wc -c < "$dst") 字节)"
      """
    当运行「sh to-legacy.sh customers.csv bad.csv GB2312」
    那么退出码为1
    而且标准错误包含「iconv: illegal input sequence at position 13」
    而且标准错误包含「转换失败：customers.csv 里有 GB2312 表示不了的字符」
    当运行「test -e bad.csv」
    那么退出码为1
    当运行「test -e bad.csv.tmp」
    那么退出码为1
    当运行「sh to-legacy.sh customers.csv bad.csv GB2312//TRANSLIT」
    那么退出码为1
    而且标准错误包含「往返不一致：GB2312//TRANSLIT 的输出转回 UTF-8 后和 customers.csv 不同」
    当运行「sh to-legacy.sh customers.csv bad.csv GBK」
    那么退出码为1
    而且标准错误包含「iconv: illegal input sequence at position 49」
    当运行「sh to-legacy.sh customers.csv legacy.csv」
    那么退出码为0
    而且标准输出包含「OK customers.csv -> legacy.csv (GB18030, 49 字节)」
    当运行「iconv -f GB18030 -t UTF-8 legacy.csv」
    那么标准输出包含「5,𠮷野家」

  @fix
  场景: 最终方案 —— Python 预检脚本用 errors='strict' 逐字检查，报出 GBK 表示不了的字，GB18030 往返一致
    假如文件「check.py」的内容为：
      """
      import sys

      # 用法：python3 check.py 输入文件(UTF-8) 目标编码
      path, encoding = sys.argv[1], sys.argv[2]
      text = open(path, encoding="utf-8").read()
      bad = []
      for lineno, line in enumerate(text.splitlines(), 1):
          for col, ch in enumerate(line, 1):
              try:
                  ch.encode(encoding)  # errors 默认就是 "strict"
              except UnicodeEncodeError:
                  bad.append(f"第 {lineno} 行第 {col} 个字符 {ch} U+{ord(ch):04X} 不能用 {encoding} 表示")
      if bad:
          print("\n".join(bad), file=sys.stderr)
          sys.exit(1)
      data = text.encode(encoding)
      if data.decode(encoding) != text:
          print(f"往返不一致：{encoding}", file=sys.stderr)
          sys.exit(1)
      print(f"全部 {len(text)} 个字符都能用 {encoding} 表示，往返一致（{len(data)} 字节）")
      """
    当运行「python3 check.py customers.csv gb2312」
    那么退出码为1
    而且标准错误包含：
      """
      第 2 行第 4 个字符 镕 U+9555 不能用 gb2312 表示
      第 3 行第 4 个字符 喆 U+5586 不能用 gb2312 表示
      第 4 行第 4 个字符 堃 U+5803 不能用 gb2312 表示
      第 5 行第 4 个字符 犇 U+7287 不能用 gb2312 表示
      第 6 行第 3 个字符 𠮷 U+20BB7 不能用 gb2312 表示
      """
    当运行「python3 check.py customers.csv gbk」
    那么退出码为1
    而且标准错误包含「第 6 行第 3 个字符 𠮷 U+20BB7 不能用 gbk 表示」
    而且标准错误不包含「镕」
    当运行「python3 check.py customers.csv gb18030」
    那么退出码为0
    而且标准输出包含「全部 35 个字符都能用 gb18030 表示，往返一致（49 字节）」

  @fix
  场景: 最终方案的副作用 —— 按 GBK 解码的一方读不了四字节序列，文件也无法自动识别编码
    假如文件「decode.py」的内容为：
      """
      import sys

      data = open(sys.argv[1], "rb").read()
      print(data.decode(sys.argv[2], errors="replace"), end="")
      """
    当运行「iconv -f UTF-8 -t GB18030 -o legacy.csv customers.csv」
    那么退出码为0
    当运行「iconv -f GBK -t UTF-8 legacy.csv」
    那么退出码为1
    而且标准错误包含「iconv: illegal input sequence at position 40」
    当运行「python3 decode.py legacy.csv gbk」
    那么标准输出包含「5,�4�5野家」
    当运行「file -i legacy.csv」
    那么标准输出包含「charset=unknown-8bit」
    当运行「python3 -c "import codecs; print(codecs.lookup('cp936').name, codecs.lookup('chinese').name, codecs.lookup('gb18030-2000').name)"」
    那么标准输出包含「gbk gb2312 gb18030」

  @fix
  场景: 最终方案的副作用 —— glibc 与 Python 的 GB18030 映射在少数码位上不一致
    假如文件「gbx.py」的内容为：
      """
      import sys

      mode, enc = sys.argv[1], sys.argv[2]
      if mode == "encode":
          sys.stdout.buffer.write(sys.argv[3].encode(enc))
      else:
          text = sys.stdin.buffer.read().decode(enc)
          print(" ".join(f"U+{ord(c):04X}" for c in text))
      """
    当运行「sh -c 'printf ḿ龴 | iconv -f UTF-8 -t GB18030 | od -An -tx1'」
    那么标准输出包含「 a8 bc fe 59」
    当运行「sh -c 'python3 gbx.py encode gb18030 ḿ龴 | od -An -tx1'」
    那么标准输出包含「 81 35 f4 37 82 35 90 37」
    当运行「sh -c 'python3 gbx.py encode gb18030 龴 | iconv -f GB18030 -t UTF-8'」
    那么退出码为1
    而且标准错误包含「iconv: illegal input sequence at position 0」
    当运行「sh -c 'printf 龴 | iconv -f UTF-8 -t GB18030 | python3 gbx.py decode gb18030'」
    那么退出码为0
    而且标准输出包含「U+E81E」
