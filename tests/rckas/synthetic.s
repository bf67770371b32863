# rck-as's flag rules on hand-made GCC-like assembly (the .ident line makes
# rck-as treat it as GCC's output). rckas_test.py "placement" checks where
# the adds went in every function; the expectation is written next to
# each function as EXPECT lines (ADD: plain adds, PADD: with pushfq).
	.text
	.globl	f_three_way
	.type	f_three_way, @function
# EXPECT f_three_way: ADD cmp jl PADD jg ADD mov ret ADD mov ret ADD mov ret
f_three_way:
	cmpl	%esi, %edi
	jl	.L2
	jg	.L3
	movl	$0, %eax
	ret
.L2:
	movl	$-1, %eax
	ret
.L3:
	movl	$1, %eax
	ret
	.size	f_three_way, .-f_three_way

# the flags live into .L5 (sete) through the fall-through of .text, not
# through the cold block in between
	.globl	f_cross
	.type	f_cross, @function
# EXPECT f_cross: PADD mov PADD sete ret
# EXPECT f_cross.cold: ADD xor ret
f_cross:
	movl	$1, %eax
	.section	.text.unlikely,"ax",@progbits
f_cross.cold:
	xorl	%eax, %eax
	ret
	.text
.L5:
	sete	%al
	ret
	.size	f_cross, .-f_cross

# reader first, then a full writer: the adds go before the writer
	.globl	f_writer
	.type	f_writer, @function
# EXPECT f_writer: endbr64 PADD mov setb ADD cmp jne ADD ret
f_writer:
	endbr64
	movl	%edi, %eax
.L7:
	setb	%cl
	cmpl	$3, %eax
	jne	.L7
	ret
	.size	f_writer, .-f_writer

# shifts: by $0 writes nothing (a reader), by $32 on 32 bits neither;
# by $1 writes all; an unknown instruction (rdtsc) reads
	.globl	f_shift
	.type	f_shift, @function
# EXPECT f_shift: PADD shl jne sar ADD sar jne PADD rdtsc shr jb ADD ret
f_shift:
	shll	$0, %eax
	jne	.L9
.L8:
	sarl	$32, %eax
	sarl	$1, %eax
	jne	.L8
.L9:
	rdtsc
	shrl	%cl, %eax
	jc	.L8
	ret
	.size	f_shift, .-f_shift

# call and ret kill, jmp * kills, an inline asm region reads and ends a
# block; SSE "addsd"/"xorps" do not write the flags
	.globl	f_misc
	.type	f_misc, @function
# EXPECT f_misc: ADD mov call PADD addsd xorps jmp cmp PADD jne ADD ret
f_misc:
	movl	$2, %eax
	call	f_writer
	addsd	%xmm1, %xmm0
	xorps	%xmm2, %xmm2
	jmp	.L11
.L11:
#APP
# 5 "x.c" 1
	cmp %eax, %eax
# 0 "" 2
#NO_APP
	jne	.L12
.L12:
	ret
	.size	f_misc, .-f_misc

# rep movsq: counted at run time; repz cmpsb: statically, and a reader
# (with %rcx = 0 it leaves the flags alone)
	.globl	f_rep
	.type	f_rep, @function
# EXPECT f_rep: PADD mov REPADD rep-movsq repz-cmpsb ret
f_rep:
	movl	$4, %ecx
	rep movsq
	repz cmpsb
	ret
	.size	f_rep, .-f_rep
	.ident	"GCC: (rckas test) 0"
	.section	.note.GNU-stack,"",@progbits
