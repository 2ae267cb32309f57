# hotloops asm snapshot of `tid-batch/c-batched` under `gcc12-strict` (csrc/nbtree_bitmap.c)
# compiler: gcc-12 (Debian 12.2.0-14+deb12u1) 12.2.0
# flags: -Wall -Wmissing-prototypes -Wpointer-arith -Wdeclaration-after-statement -Werror=vla -Wendif-labels -Wmissing-format-attribute -Wimplicit-fallthrough=3 -Wcast-function-type -Wformat-security -fstrict-aliasing -fwrapv -fexcess-precision=standard -Wno-format-truncation -Wno-stringop-truncation -g -g -O2 -fstack-protector-strong -Wformat -Werror=format-security -fno-omit-frame-pointer -D_FORTIFY_SOURCE=2 -D_GNU_SOURCE -DHL_CONFIG=gcc12_strict
# the compiler's -S -masm=intel output with the object build's arguments, normalised to the Rust snapshots' dialect; symbol suffix __gcc12_strict dropped

hotloops_tid_batch_c_batched:
	push rbp
	mov rbp, rsp
	push r15
	xor r15d, r15d
	push r14
	push r13
	xor r13d, r13d
	push r12
	push rbx
	sub rsp, 8200
	mov qword ptr [rbp - 8216], rsi
	mov r12, qword ptr [rdi + 56]
	mov rax, qword ptr fs:[40]
	mov qword ptr [rbp - 56], rax
	xor eax, eax
	mov rax, qword ptr [rdi + 8]
	mov qword ptr [rbp - 8232], rax
	lea rax, [rbp - 8208]
	mov qword ptr [rbp - 8224], rax
.L0:
	mov r14d, dword ptr [r12 + 132]
	mov ebx, dword ptr [r12 + 128]
	cmp r14d, ebx
	jle .L1
	jmp .L2
.L3:
	movsx rax, r15d
	add r15d, 1
.L4:
	movsx rdx, r14d
	lea rax, [rax + 2*rax]
	add r14d, 1
	add r13, 1
	lea rdx, [rdx + 4*rdx]
	add rax, rax
	lea rdx, [r12 + 2*rdx + 128]
	mov ecx, dword ptr [rdx + 8]
	movzx edx, word ptr [rdx + 12]
	mov dword ptr [rbp + rax - 8208], ecx
	mov word ptr [rbp + rax - 8204], dx
	cmp ebx, r14d
	jl .L2
.L1:
	cmp r15d, 1358
	jne .L3
	mov rsi, qword ptr [rbp - 8224]
	mov rdi, qword ptr [rbp - 8216]
	xor ecx, ecx
	mov edx, 1358
	mov r15d, 1
	call hl_tbm_add_tuples@PLT
	xor eax, eax
	jmp .L4
.L2:
	mov dword ptr [r12 + 132], r14d
	mov rsi, qword ptr [rbp - 8232]
	mov rdi, r12
	call hl_bt_steppage@PLT
	test al, al
	jne .L0
	test r15d, r15d
	jle .L5
	mov rdi, qword ptr [rbp - 8216]
	lea rsi, [rbp - 8208]
	xor ecx, ecx
	mov edx, r15d
	call hl_tbm_add_tuples@PLT
.L5:
	mov rax, qword ptr [rbp - 56]
	sub rax, qword ptr fs:[40]
	jne .L6
	add rsp, 8200
	mov rax, r13
	pop rbx
	pop r12
	pop r13
	pop r14
	pop r15
	pop rbp
	ret
.L6:
	call __stack_chk_fail@PLT
