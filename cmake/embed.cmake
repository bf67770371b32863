# Turn the file IN into a C source OUT defining rck_chip_default_json[].
file(READ ${IN} content HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," content ${content})
file(WRITE ${OUT} "/* generated from ${IN} */\nconst char rck_chip_default_json[] = {${content} 0x00};\n")
