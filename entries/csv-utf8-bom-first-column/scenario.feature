# language: zh-CN
@requires:python3
功能: CSV 开头的 UTF-8 BOM 让 csv.DictReader 的第一列变成 '\ufeffid'
  用 Python 标准库造两份内容相同的 CSV：export.csv 开头带 EF BB BF（BOM），plain.csv 不带；
  再用 Debian 12 的 python3、od、file、grep、sed 逐个检查各方案记录的现象。

  背景:
    假如文件「make_csv.py」的内容为：
      """
      import csv

      rows = [['id', '姓名', '城市'], ['1', '张三', '北京'], ['2', '李四', '上海']]

      # export.csv：开头是 EF BB BF，模拟带 BOM 的导出文件
      with open('export.csv', 'w', encoding='utf-8', newline='') as f:
          f.write('\ufeff')
          csv.writer(f).writerows(rows)

      # plain.csv：内容一样，没有 BOM
      with open('plain.csv', 'w', encoding='utf-8', newline='') as f:
          csv.writer(f).writerows(rows)
      """
    而且文件「read_users.py」的内容为：
      """
      import csv
      import sys

      with open(sys.argv[1], encoding='utf-8', newline='') as f:
          for row in csv.DictReader(f):
              print(row['id'], row['姓名'])
      """
    而且文件「show_header.py」的内容为：
      """
      import csv
      import sys

      with open(sys.argv[1], encoding=sys.argv[2], newline='') as f:
          reader = csv.DictReader(f)
          print(reader.fieldnames)
          print(list(next(reader).keys()))
      """
    而且运行「python3 make_csv.py」

  @attempt-1 @requires:od @requires:head @requires:file @requires:sh
  场景: 方案 1 —— 带 BOM 的文件报 KeyError: 'id'，strip() 表头后照样报错
    当运行「python3 read_users.py export.csv」
    那么退出码为1
    而且标准错误包含：
      """
          print(row['id'], row['姓名'])
                ~~~^^^^^^
      KeyError: 'id'
      """
    当运行「python3 read_users.py plain.csv」
    那么退出码为0
    而且标准输出包含「1 张三」
    当运行「python3 show_header.py export.csv utf-8」
    那么标准输出包含「['\ufeffid', '姓名', '城市']」
    当运行「sh -c 'head -c 3 export.csv | od -An -tx1'」
    那么标准输出包含「ef bb bf」
    当运行「sh -c 'head -c 3 plain.csv | od -An -tx1'」
    那么标准输出包含「69 64 2c」
    当运行「file export.csv」
    那么标准输出包含「export.csv: CSV text」
    而且标准输出不包含「BOM」
    当运行「file -e csv export.csv」
    那么标准输出包含「export.csv: Unicode text, UTF-8 (with BOM) text, with CRLF line terminators」
    假如文件「read_users_strip.py」的内容为：
      """
      import csv
      import sys

      with open(sys.argv[1], encoding='utf-8', newline='') as f:
          reader = csv.DictReader(f)
          reader.fieldnames = [name.strip() for name in reader.fieldnames]
          print(reader.fieldnames)
          for row in reader:
              print(row['id'], row['姓名'])
      """
    而且文件「feff.py」的内容为：
      """
      import unicodedata

      c = '\ufeff'
      print(unicodedata.name(c), unicodedata.category(c))
      print('isspace:', c.isspace())
      print('strip:', repr((c + 'id').strip()))
      """
    当运行「python3 read_users_strip.py export.csv」
    那么退出码为1
    而且标准输出包含「['\ufeffid', '姓名', '城市']」
    而且标准错误包含「KeyError: 'id'」
    当运行「python3 feff.py」
    那么标准输出包含：
      """
      ZERO WIDTH NO-BREAK SPACE Cf
      isspace: False
      strip: '\ufeffid'
      """

  @attempt-2
  场景: 方案 2 —— 把键名写成 '\ufeffid'：带 BOM 的文件能读，不带 BOM 的文件报 KeyError: '\ufeffid'
    假如文件「read_users_bomkey.py」的内容为：
      """
      import csv
      import sys

      with open(sys.argv[1], encoding='utf-8', newline='') as f:
          for row in csv.DictReader(f):
              print(row['\ufeffid'], row['姓名'])
      """
    当运行「python3 read_users_bomkey.py export.csv」
    那么退出码为0
    而且标准输出包含：
      """
      1 张三
      2 李四
      """
    当运行「python3 read_users_bomkey.py plain.csv」
    那么退出码为1
    而且标准错误包含「KeyError: '\ufeffid'」

  @attempt-3 @fix
  场景: 方案 3 / 最终方案 —— 用 utf-8-sig 打开，带不带 BOM 都得到 'id'
    假如文件「read_users_sig.py」的内容为：
      """
      import csv
      import sys

      with open(sys.argv[1], encoding='utf-8-sig', newline='') as f:
          for row in csv.DictReader(f):
              print(row['id'], row['姓名'])
      """
    当运行「python3 read_users_sig.py export.csv」
    那么退出码为0
    而且标准输出包含：
      """
      1 张三
      2 李四
      """
    当运行「python3 read_users_sig.py plain.csv」
    那么退出码为0
    而且标准输出包含「1 张三」
    当运行「python3 show_header.py export.csv utf-8-sig」
    那么标准输出包含「['id', '姓名', '城市']」
    而且标准输出不包含「\ufeff」
    当运行「python3 show_header.py plain.csv utf-8-sig」
    那么标准输出包含「['id', '姓名', '城市']」

  @fix @requires:od @requires:head @requires:file @requires:sh
  场景: 最终方案 —— 给 Excel 用户的文件用 utf-8-sig 写，开头是 EF BB BF，追加时不重复写
    假如文件「export_for_excel.py」的内容为：
      """
      import csv

      rows = [['id', '姓名', '城市'], ['1', '张三', '北京'], ['2', '李四', '上海']]

      with open('for_excel.csv', 'w', encoding='utf-8-sig', newline='') as f:
          csv.writer(f).writerows(rows)

      # 往已有文件后面追加一行：不会再写一个 BOM
      with open('for_excel.csv', 'a', encoding='utf-8-sig', newline='') as f:
          csv.writer(f).writerow(['3', '王五', '广州'])
      """
    而且文件「count_bom.py」的内容为：
      """
      import sys

      data = open(sys.argv[1], 'rb').read()
      print('BOM 个数:', data.count(b'\xef\xbb\xbf'))
      """
    当运行「python3 export_for_excel.py」
    那么退出码为0
    当运行「sh -c 'head -c 3 for_excel.csv | od -An -tx1'」
    那么标准输出包含「ef bb bf」
    当运行「python3 count_bom.py for_excel.csv」
    那么标准输出包含「BOM 个数: 1」
    当运行「file -e csv for_excel.csv」
    那么标准输出包含「for_excel.csv: Unicode text, UTF-8 (with BOM) text, with CRLF line terminators」

  @fix @requires:grep @requires:sed @requires:cat @requires:head @requires:od @requires:sh
  场景: 副作用 —— 带 BOM 的文件让 grep '^id,' 匹配不到；cat 拼接后中间的 BOM 留在数据里
    当运行「sh -c "grep -c '^id,' export.csv plain.csv"」
    那么标准输出包含：
      """
      export.csv:0
      plain.csv:1
      """
    当运行「sh -c 'sed "1s/^\xEF\xBB\xBF//" export.csv | head -c 3 | od -An -tx1'」
    那么退出码为0
    而且标准输出包含「69 64 2c」
    假如文件「read_rows.py」的内容为：
      """
      import csv
      import sys

      with open(sys.argv[1], encoding='utf-8-sig', newline='') as f:
          for row in csv.reader(f):
              print(row)
      """
    当运行「sh -c 'cat export.csv export.csv > merged.csv'」
    而且运行「python3 read_rows.py merged.csv」
    那么标准输出包含：
      """
      ['2', '李四', '上海']
      ['\ufeffid', '姓名', '城市']
      """
