# hotloops asm snapshot of `tid-batch/c-batched` under `clang19-pg` (csrc/nbtree_bitmap.c)
# compiler: Debian clang version 19.1.7 (3~deb12u1)
# flags: -Wall -Wmissing-prototypes -Wpointer-arith -Wdeclaration-after-statement -Werror=vla -Wendif-labels -Wmissing-format-attribute -Wimplicit-fallthrough -Wcast-function-type -Wformat-security -fno-strict-aliasing -fwrapv -fexcess-precision=standard -Wno-format-truncation -gdwarf-4 -O2 -fstack-protector-strong -Wformat -Werror=format-security -fno-omit-frame-pointer -D_FORTIFY_SOURCE=2 -D_GNU_SOURCE -DHL_CONFIG=clang19_pg
# the compiler's -S -masm=intel output with the object build's arguments, normalised to the Rust snapshots' dialect; symbol suffix __clang19_pg dropped

hotloops_tid_batch_c_batched:
	push rbp
	mov rbp, rsp
	push r15
	push r14
	push r13
	push r12
	push rbx
	sub rsp, 8200
	mov qword ptr [rbp - 8216], rsi
	mov rax, qword ptr fs:[40]
	mov qword ptr [rbp - 48], rax
	mov rax, qword ptr [rdi + 8]
	mov qword ptr [rbp - 8232], rax
	mov r15, qword ptr [rdi + 56]
	lea r12, [r15 + 136]
	xor ebx, ebx
	xor r13d, r13d
	mov qword ptr [rbp - 8224], r15
	jmp .L0
.L1:
	mov rax, qword ptr [rbp - 8224]
	mov dword ptr [rax + 132], r15d
	mov r15, rax
	mov rdi, rax
	mov rsi, qword ptr [rbp - 8232]
	call hl_bt_steppage@PLT
	test al, al
	je .L2
.L0:
	mov r14d, dword ptr [r15 + 128]
	mov r15d, dword ptr [r15 + 132]
	jmp .L3
.L4:
	movsxd rax, r13d
	inc r13d
	lea rax, [rax + 2*rax]
	movsxd r15, r15d
	lea rcx, [r15 + 4*r15]
	movzx edx, word ptr [r12 + 2*rcx + 4]
	mov word ptr [rbp + 2*rax - 8204], dx
	mov ecx, dword ptr [r12 + 2*rcx]
	mov dword ptr [rbp + 2*rax - 8208], ecx
	inc rbx
	inc r15d
.L3:
	cmp r15d, r14d
	jg .L1
	cmp r13d, 1358
	jne .L4
	xor r13d, r13d
	mov rdi, qword ptr [rbp - 8216]
	lea rsi, [rbp - 8208]
	mov edx, 1358
	xor ecx, ecx
	call hl_tbm_add_tuples@PLT
	jmp .L4
.L2:
	test r13d, r13d
	jle .L5
	lea rsi, [rbp - 8208]
	mov rdi, qword ptr [rbp - 8216]
	mov edx, r13d
	xor ecx, ecx
	call hl_tbm_add_tuples@PLT
.L5:
	mov rax, qword ptr fs:[40]
	cmp rax, qword ptr [rbp - 48]
	jne .L6
	mov rax, rbx
	add rsp, 8200
	pop rbx
	pop r12
	pop r13
	pop r14
	pop r15
	pop rbp
	ret
.L6:
	call __stack_chk_fail@PLT
