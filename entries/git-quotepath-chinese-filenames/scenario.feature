# language: zh-CN
@requires:git @requires:sh
功能: git 把中文文件名显示成八进制转义（core.quotepath）
  在一个临时仓库里放入中文名、带空格、带制表符、带双引号、带反斜杠和带换行的文件，
  提交后再改动其中三个，检查 git 各个命令在默认配置、core.quotepath=false 和 -z 下怎样输出文件名。

  背景:
    假如文件「文档.md」的内容为：
      """
      第一版
      """
    而且文件「中 文.txt」的内容为：
      """
      第一版
      """
    而且运行「sh -c 'printf "第一版\n" > "$(printf "中文\t名.txt")"; printf "x\n" > "say\"hi\".txt"; printf "x\n" > "back\\slash.txt"; printf "x\n" > "$(printf "new\nline.txt")"'」
    而且运行「git -c init.defaultBranch=main init -q」
    而且运行「git add -A」
    而且运行「git -c user.name=测试 -c user.email=test@example.com commit -q -m 初始提交」
    而且运行「sh -c 'printf "第二版\n" >> 文档.md; printf "第二版\n" >> "中 文.txt"; printf "第二版\n" >> "$(printf "中文\t名.txt")"'」
    那么退出码为0

  @attempt-1 @requires:locale @requires:ls @requires:env @requires:printf @requires:od @requires:python3
  场景: 方案 1 —— locale 已经是 UTF-8，git 照样输出八进制转义，和 locale 无关
    当运行「printf '\346\226\207\346\241\243'」
    那么标准输出包含「文档」
    当运行「sh -c 'printf 文档 | od -An -tx1'」
    那么标准输出包含「e6 96 87 e6 a1 a3」
    当运行「python3 -c "print('文档'.encode())"」
    那么标准输出包含「b'\xe6\x96\x87\xe6\xa1\xa3'」
    当运行「locale charmap」
    那么标准输出包含「UTF-8」
    当运行「ls」
    那么标准输出包含「文档.md」
    当运行「git status --short」
    那么标准输出包含「 M "\346\226\207\346\241\243.md"」
    而且标准输出包含「 M "\344\270\255 \346\226\207.txt"」
    假如文件「笔记.md」的内容为：
      """
      还没有 git add
      """
    当运行「git status --short」
    那么标准输出包含「?? "\347\254\224\350\256\260.md"」
    当运行「git ls-files」
    那么标准输出包含「"\346\226\207\346\241\243.md"」
    当运行「env LANG=C LC_ALL=C git ls-files」
    那么标准输出包含「"\346\226\207\346\241\243.md"」
    当运行「git diff」
    那么标准输出包含「diff --git "a/\346\226\207\346\241\243.md" "b/\346\226\207\346\241\243.md"」
    而且标准输出包含「--- "a/\346\226\207\346\241\243.md"」
    当运行「git log --stat --format=%s」
    那么标准输出匹配「^ "\\346\\226\\207\\346\\241\\243\.md" +\| 1 \+$」
    当运行「git log --name-only --format=%s」
    那么标准输出包含「"\346\226\207\346\241\243.md"」
    而且标准输出不包含「文档.md」

  @attempt-2
  场景: 方案 2 —— core.quotepath=false：中文名正常显示，制表符、换行、双引号、反斜杠仍被转义，short 格式还会给带空格的名字加引号
    当运行「git config core.quotepath false」
    而且运行「git status --short」
    那么标准输出包含「 M 文档.md」
    而且标准输出包含「 M "中 文.txt"」
    而且标准输出包含「 M "中文\t名.txt"」
    当运行「git status」
    那么标准输出包含「modified:   中 文.txt」
    当运行「git ls-files」
    那么标准输出包含「文档.md」
    而且标准输出匹配「^中 文\.txt$」
    而且标准输出包含「"中文\t名.txt"」
    而且标准输出包含「"say\"hi\".txt"」
    而且标准输出包含「"back\\slash.txt"」
    而且标准输出包含「"new\nline.txt"」
    当运行「git diff」
    那么标准输出包含「diff --git a/文档.md b/文档.md」
    而且标准输出包含「diff --git "a/中文\t名.txt" "b/中文\t名.txt"」
    而且标准输出包含「diff --git a/中 文.txt b/中 文.txt」
    而且标准输出匹配「^\+\+\+ b/中 文\.txt\t$」
    当运行「git log --stat --format=%s」
    那么标准输出包含「文档.md」
    而且标准输出包含「"say\"hi\".txt"」
    当运行「git log --name-only --format=%s」
    那么标准输出包含「"back\\slash.txt"」

  @attempt-3 @requires:cut @requires:wc
  场景: 方案 3 —— 脚本逐行读 git status --porcelain，拿到的是带引号的名字
    当运行「sh -c 'git status --porcelain | cut -c4- | while IFS= read -r f; do wc -l "$f"; done'」
    那么标准错误包含「wc: '"\346\226\207\346\241\243.md"': No such file or directory」
    而且标准输出为空
    当运行「git -c core.quotepath=false status --porcelain」
    那么标准输出包含「 M 文档.md」
    当运行「sh -c 'git -c core.quotepath=false status --porcelain | cut -c4- | while IFS= read -r f; do wc -l "$f"; done'」
    那么标准输出包含「2 文档.md」
    而且标准错误包含「wc: '"中 文.txt"': No such file or directory」
    而且标准错误包含「wc: '"中文\t名.txt"': No such file or directory」

  @fix @requires:xargs @requires:wc @requires:printf @requires:env
  场景: 最终方案 —— 给人看设 core.quotepath=false，给脚本用 -z
    当运行「git config --global core.quotepath false」
    而且运行「git status --short」
    那么标准输出包含「 M 文档.md」
    当运行「git diff --stat」
    那么标准输出包含「文档.md」
    当运行「sh -c 'git diff --name-only -z | xargs -0 wc -l'」
    那么退出码为0
    而且标准错误为空
    而且标准输出包含「2 文档.md」
    而且标准输出包含「2 中 文.txt」
    而且标准输出匹配「^ *2 中文\t名\.txt$」
    当运行「sh -c 'git ls-files -z | xargs -0 -n1 printf "[%s]\n"'」
    那么标准输出包含「[say"hi".txt]」
    而且标准输出包含「[back\slash.txt]」
    而且标准输出包含「[文档.md]」
    当运行「sh -c 'git -c core.quotepath=true status --porcelain -z | xargs -0 -n1 printf "[%s]\n"'」
    那么标准输出包含「[ M 文档.md]」
    而且标准输出包含「[ M 中 文.txt]」
    当运行「sh -c 'git -c core.quotepath=true status -z | xargs -0 -n1 printf "[%s]\n"'」
    那么标准输出包含「[ M 文档.md]」
    当运行「env LANG=C LC_ALL=C git -c core.quotepath=false ls-files」
    那么标准输出包含「文档.md」
    当运行「git mv 文档.md 新文档.md」
    而且运行「sh -c 'git status --porcelain -z | xargs -0 -n1 printf "[%s]\n"'」
    那么标准输出包含：
      """
      [RM 新文档.md]
      [文档.md]
      """
