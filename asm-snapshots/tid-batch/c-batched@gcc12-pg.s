# hotloops asm snapshot of `tid-batch/c-batched` under `gcc12-pg` (csrc/nbtree_bitmap.c)
# compiler: gcc-12 (Debian 12.2.0-14+deb12u1) 12.2.0
# flags: -Wall -Wmissing-prototypes -Wpointer-arith -Wdeclaration-after-statement -Werror=vla -Wendif-labels -Wmissing-format-attribute -Wimplicit-fallthrough=3 -Wcast-function-type -Wformat-security -fno-strict-aliasing -fwrapv -fexcess-precision=standard -Wno-format-truncation -Wno-stringop-truncation -g -g -O2 -fstack-protector-strong -Wformat -Werror=format-security -fno-omit-frame-pointer -D_FORTIFY_SOURCE=2 -D_GNU_SOURCE -DHL_CONFIG=gcc12_pg
# the compiler's -S -masm=intel output with the object build's arguments, normalised to the Rust snapshots' dialect; symbol suffix __gcc12_pg dropped

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
	mov qword ptr [rbp - 8232], rsi
	mov r12, qword ptr [rdi + 56]
	mov qword ptr [rbp - 8216], rdx
	mov rax, qword ptr fs:[40]
	mov qword ptr [rbp - 56], rax
	xor eax, eax
	lea rax, [rbp - 8208]
	mov qword ptr [rbp - 8224], rax
	jmp .L0
.L1:
	mov rdi, qword ptr [rbp - 8232]
	call hl_tb_bt_start_prim_scan@PLT
	test al, al
	je .L2
.L0:
	mov rdi, qword ptr [rbp - 8232]
	call hl_tb_bt_first@PLT
	test rax, rax
	je .L1
.L3:
	mov r14d, dword ptr [r12 + 132]
	mov ebx, dword ptr [r12 + 128]
	cmp r14d, ebx
	jle .L4
	jmp .L5
.L6:
	movsx rax, r13d
	add r13d, 1
.L7:
	movsx rcx, r14d
	lea rax, [rax + 2*rax]
	add r14d, 1
	add r15, 1
	lea rcx, [rcx + 4*rcx]
	add rax, rax
	lea rcx, [r12 + 2*rcx + 128]
	mov esi, dword ptr [rcx + 8]
	mov dword ptr [rbp + rax - 8208], esi
	movzx ecx, word ptr [rcx + 12]
	mov word ptr [rbp + rax - 8204], cx
	cmp ebx, r14d
	jl .L5
.L4:
	cmp r13d, 1358
	jne .L6
	mov rsi, qword ptr [rbp - 8224]
	mov rdi, qword ptr [rbp - 8216]
	xor ecx, ecx
	mov edx, 1358
	mov r13d, 1
	call hl_tbm_add_tuples@PLT
	xor eax, eax
	jmp .L7
.L5:
	mov dword ptr [r12 + 132], r14d
	mov rdi, qword ptr [rbp - 8232]
	call hl_tb_bt_steppage@PLT
	test al, al
	jne .L3
	mov rdi, qword ptr [rbp - 8232]
	call hl_tb_bt_start_prim_scan@PLT
	test al, al
	jne .L0
.L2:
	test r13d, r13d
	jle .L8
	mov rdi, qword ptr [rbp - 8216]
	lea rsi, [rbp - 8208]
	xor ecx, ecx
	mov edx, r13d
	call hl_tbm_add_tuples@PLT
.L8:
	mov rax, qword ptr [rbp - 56]
	sub rax, qword ptr fs:[40]
	jne .L9
	add rsp, 8200
	mov rax, r15
	pop rbx
	pop r12
	pop r13
	pop r14
	pop r15
	pop rbp
	ret
.L9:
	call __stack_chk_fail@PLT
