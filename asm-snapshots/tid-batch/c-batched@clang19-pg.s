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
	mov qword ptr [rbp - 8216], rdx
	mov r14, rsi
	mov rax, qword ptr fs:[40]
	mov qword ptr [rbp - 48], rax
	mov r13, qword ptr [rdi + 56]
	lea r15, [r13 + 136]
	xor ebx, ebx
	xor r12d, r12d
	mov qword ptr [rbp - 8232], rsi
	mov qword ptr [rbp - 8224], r13
	jmp .L0
.L1:
	mov rdi, r14
	call hl_tb_bt_start_prim_scan@PLT
	test al, al
	je .L2
.L0:
	mov rdi, r14
	call hl_tb_bt_first@PLT
	test rax, rax
	jne .L3
	jmp .L1
.L4:
	mov rax, qword ptr [rbp - 8224]
	mov dword ptr [rax + 132], r13d
	mov r13, rax
	mov r14, qword ptr [rbp - 8232]
	mov rdi, r14
	call hl_tb_bt_steppage@PLT
	test al, al
	je .L1
.L3:
	mov r14d, dword ptr [r13 + 128]
	mov r13d, dword ptr [r13 + 132]
	jmp .L5
.L6:
	movsxd rax, r12d
	inc r12d
	lea rax, [rax + 2*rax]
	movsxd r13, r13d
	lea rcx, [4*r13]
	add rcx, r13
	movzx edx, word ptr [r15 + 2*rcx + 4]
	mov word ptr [rbp + 2*rax - 8204], dx
	mov ecx, dword ptr [r15 + 2*rcx]
	mov dword ptr [rbp + 2*rax - 8208], ecx
	inc rbx
	inc r13d
.L5:
	cmp r13d, r14d
	jg .L4
	cmp r12d, 1358
	jne .L6
	xor r12d, r12d
	mov rdi, qword ptr [rbp - 8216]
	lea rsi, [rbp - 8208]
	mov edx, 1358
	xor ecx, ecx
	call hl_tbm_add_tuples@PLT
	jmp .L6
.L2:
	test r12d, r12d
	jle .L7
	lea rsi, [rbp - 8208]
	mov rdi, qword ptr [rbp - 8216]
	mov edx, r12d
	xor ecx, ecx
	call hl_tbm_add_tuples@PLT
.L7:
	mov rax, qword ptr fs:[40]
	cmp rax, qword ptr [rbp - 48]
	jne .L8
	mov rax, rbx
	add rsp, 8200
	pop rbx
	pop r12
	pop r13
	pop r14
	pop r15
	pop rbp
	ret
.L8:
	call __stack_chk_fail@PLT
