	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
	.amdhsa_code_object_version 5
	.protected	dot_local               ; -- Begin function dot_local
	.globl	dot_local
	.p2align	8
	.type	dot_local,@function
dot_local:                              ; @dot_local
; %bb.0:
	s_clause 0x2
	s_load_b32 s14, s[2:3], 0x18
	s_load_b128 s[8:11], s[2:3], 0x0
	s_load_b64 s[12:13], s[2:3], 0x10
	s_mov_b32 s5, 0
	s_waitcnt lgkmcnt(0)
	s_cmp_lt_i32 s14, 1
	s_cbranch_scc1 .LBB0_5
; %bb.1:
	s_mov_b32 s6, s5
	s_mov_b32 s7, s5
	v_lshlrev_b32_e32 v7, 4, v0
	s_delay_alu instid0(VALU_DEP_1) | instskip(NEXT) | instid1(VALU_DEP_1)
	v_add_co_u32 v8, s4, s10, v7
	v_add_co_ci_u32_e64 v9, null, s11, 0, s4
	v_add_co_u32 v1, s4, v7, s8
	s_delay_alu instid0(VALU_DEP_1) | instskip(SKIP_1) | instid1(VALU_DEP_2)
	v_add_co_ci_u32_e64 v2, null, 0, s9, s4
	s_mov_b32 s4, s5
	v_add_co_u32 v10, vcc_lo, 0x800, v1
	s_delay_alu instid0(VALU_DEP_2)
	v_add_co_ci_u32_e32 v11, vcc_lo, 0, v2, vcc_lo
	v_dual_mov_b32 v1, s4 :: v_dual_mov_b32 v4, s7
	v_dual_mov_b32 v2, s5 :: v_dual_mov_b32 v3, s6
.LBB0_2:                                ; =>This Loop Header: Depth=1
                                        ;     Child Loop BB0_3 Depth 2
	s_mov_b32 s7, s5
	s_delay_alu instid0(SALU_CYCLE_1)
	s_lshl_b64 s[8:9], s[6:7], 4
	s_mov_b32 s7, 0
	v_add_co_u32 v5, vcc_lo, v8, s8
	v_add_co_ci_u32_e32 v6, vcc_lo, s9, v9, vcc_lo
	s_lshl_b64 s[8:9], s[4:5], 4
	global_load_b128 v[12:15], v[5:6], off
	v_add_co_u32 v5, vcc_lo, v10, s8
	v_add_co_ci_u32_e32 v6, vcc_lo, s9, v11, vcc_lo
	s_waitcnt vmcnt(0)
	ds_store_b128 v7, v[12:15]
	s_waitcnt vmcnt(0) lgkmcnt(0)
	s_barrier
	s_set_inst_prefetch_distance 0x1
	.p2align	6
.LBB0_3:                                ;   Parent Loop BB0_2 Depth=1
                                        ; =>  This Inner Loop Header: Depth=2
	s_clause 0x3
	global_load_b128 v[12:15], v[5:6], off offset:-2048
	global_load_b128 v[16:19], v[5:6], off offset:-1024
	global_load_b128 v[20:23], v[5:6], off
	global_load_b128 v[24:27], v[5:6], off offset:1024
	v_mov_b32_e32 v40, s7
	v_add_co_u32 v5, vcc_lo, 0x1000, v5
	v_add_co_ci_u32_e32 v6, vcc_lo, 0, v6, vcc_lo
	ds_load_b128 v[28:31], v40
	ds_load_b128 v[32:35], v40 offset:16
	ds_load_b128 v[36:39], v40 offset:32
	s_add_i32 s7, s7, 64
	s_delay_alu instid0(SALU_CYCLE_1)
	s_cmpk_eq_i32 s7, 0x400
	s_waitcnt vmcnt(3) lgkmcnt(2)
	v_fma_f32 v1, v12, v28, v1
	v_fma_f32 v3, v14, v30, v3
	v_fmac_f32_e32 v4, v15, v31
	v_fma_f32 v2, v13, v29, v2
	s_waitcnt vmcnt(2) lgkmcnt(1)
	v_fmac_f32_e32 v1, v16, v32
	v_fmac_f32_e32 v3, v18, v34
	ds_load_b128 v[40:43], v40 offset:48
	v_fmac_f32_e32 v4, v19, v35
	s_waitcnt vmcnt(1) lgkmcnt(1)
	v_dual_fmac_f32 v2, v17, v33 :: v_dual_fmac_f32 v1, v20, v36
	s_delay_alu instid0(VALU_DEP_2) | instskip(SKIP_1) | instid1(VALU_DEP_2)
	v_dual_fmac_f32 v3, v22, v38 :: v_dual_fmac_f32 v4, v23, v39
	s_waitcnt vmcnt(0) lgkmcnt(0)
	v_dual_fmac_f32 v2, v21, v37 :: v_dual_fmac_f32 v1, v24, v40
	s_delay_alu instid0(VALU_DEP_2) | instskip(NEXT) | instid1(VALU_DEP_2)
	v_dual_fmac_f32 v3, v26, v42 :: v_dual_fmac_f32 v4, v27, v43
	v_fmac_f32_e32 v2, v25, v41
	s_cbranch_scc0 .LBB0_3
; %bb.4:                                ;   in Loop: Header=BB0_2 Depth=1
	s_set_inst_prefetch_distance 0x2
	s_add_i32 s6, s6, 64
	s_addk_i32 s4, 0x1000
	s_cmp_ge_i32 s6, s14
	s_waitcnt vmcnt(0) lgkmcnt(15)
	s_barrier
	s_cbranch_scc0 .LBB0_2
	s_branch .LBB0_6
.LBB0_5:
	v_dual_mov_b32 v4, 0 :: v_dual_mov_b32 v3, 0
	v_dual_mov_b32 v2, 0 :: v_dual_mov_b32 v1, 0
.LBB0_6:
	s_load_b32 s4, s[0:1], 0x4
	s_load_b32 s0, s[2:3], 0x24
	s_delay_alu instid0(VALU_DEP_1) | instskip(SKIP_1) | instid1(VALU_DEP_1)
	v_dual_add_f32 v1, v1, v2 :: v_dual_lshlrev_b32 v0, 2, v0
	s_mov_b32 s1, 0
	v_add_f32_e32 v1, v3, v1
	s_delay_alu instid0(VALU_DEP_1) | instskip(SKIP_2) | instid1(SALU_CYCLE_1)
	v_add_f32_e32 v1, v4, v1
	s_waitcnt lgkmcnt(0)
	s_and_b32 s2, s4, 0xffff
	s_mul_hi_u32 s3, s2, s15
	s_mul_i32 s2, s2, s15
	s_delay_alu instid0(SALU_CYCLE_1) | instskip(NEXT) | instid1(SALU_CYCLE_1)
	s_lshl_b64 s[2:3], s[2:3], 2
	s_add_u32 s2, s12, s2
	s_addc_u32 s3, s13, s3
	s_lshl_b64 s[0:1], s[0:1], 2
	s_delay_alu instid0(SALU_CYCLE_1)
	s_add_u32 s0, s0, s2
	s_addc_u32 s1, s1, s3
	global_store_b32 v0, v1, s[0:1]
	s_nop 0
	s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)
	s_endpgm
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel dot_local
		.amdhsa_group_segment_fixed_size 1024
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_kernarg_size 288
		.amdhsa_user_sgpr_count 15
		.amdhsa_user_sgpr_dispatch_ptr 1
		.amdhsa_user_sgpr_queue_ptr 0
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_dispatch_id 0
		.amdhsa_user_sgpr_private_segment_size 0
		.amdhsa_wavefront_size32 1
		.amdhsa_uses_dynamic_stack 0
		.amdhsa_enable_private_segment 0
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_workgroup_id_y 0
		.amdhsa_system_sgpr_workgroup_id_z 0
		.amdhsa_system_sgpr_workgroup_info 0
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 44
		.amdhsa_next_free_sgpr 16
		.amdhsa_reserve_vcc 1
		.amdhsa_float_round_mode_32 0
		.amdhsa_float_round_mode_16_64 0
		.amdhsa_float_denorm_mode_32 3
		.amdhsa_float_denorm_mode_16_64 3
		.amdhsa_dx10_clamp 1
		.amdhsa_ieee_mode 1
		.amdhsa_fp16_overflow 0
		.amdhsa_workgroup_processor_mode 1
		.amdhsa_memory_ordered 1
		.amdhsa_forward_progress 0
		.amdhsa_shared_vgpr_count 0
		.amdhsa_exception_fp_ieee_invalid_op 0
		.amdhsa_exception_fp_denorm_src 0
		.amdhsa_exception_fp_ieee_div_zero 0
		.amdhsa_exception_fp_ieee_overflow 0
		.amdhsa_exception_fp_ieee_underflow 0
		.amdhsa_exception_fp_ieee_inexact 0
		.amdhsa_exception_int_div_zero 0
	.end_amdhsa_kernel
	.text
.Lfunc_end0:
	.size	dot_local, .Lfunc_end0-dot_local
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 580
; NumSgprs: 18
; NumVgprs: 44
; ScratchSize: 0
; MemoryBound: 1
; FloatMode: 240
; IeeeMode: 1
; LDSByteSize: 1024 bytes/workgroup (compile time only)
; SGPRBlocks: 2
; VGPRBlocks: 5
; NumSGPRsForWavesPerEU: 18
; NumVGPRsForWavesPerEU: 44
; Occupancy: 16
; WaveLimiterHint : 1
; COMPUTE_PGM_RSRC2:SCRATCH_EN: 0
; COMPUTE_PGM_RSRC2:USER_SGPR: 15
; COMPUTE_PGM_RSRC2:TRAP_HANDLER: 0
; COMPUTE_PGM_RSRC2:TGID_X_EN: 1
; COMPUTE_PGM_RSRC2:TGID_Y_EN: 0
; COMPUTE_PGM_RSRC2:TGID_Z_EN: 0
; COMPUTE_PGM_RSRC2:TIDIG_COMP_CNT: 0
	.text
	.protected	private_array           ; -- Begin function private_array
	.globl	private_array
	.p2align	8
	.type	private_array,@function
private_array:                          ; @private_array
; %bb.0:
	s_load_b32 s9, s[0:1], 0x4
	s_clause 0x1
	s_load_b128 s[4:7], s[2:3], 0x0
	s_load_b32 s8, s[2:3], 0x14
	s_load_b32 s0, s[0:1], 0xc
	s_mov_b32 s1, 0
	v_lshlrev_b32_e32 v15, 2, v0
	s_waitcnt lgkmcnt(0)
	s_and_b32 s2, s9, 0xffff
	s_mov_b32 s9, s1
	s_mul_hi_u32 s11, s2, s15
	s_mul_i32 s10, s2, s15
	s_delay_alu instid0(SALU_CYCLE_1) | instskip(NEXT) | instid1(SALU_CYCLE_1)
	s_lshl_b64 s[2:3], s[10:11], 2
	s_add_u32 s12, s6, s2
	s_addc_u32 s13, s7, s3
	s_lshl_b64 s[2:3], s[8:9], 2
	s_delay_alu instid0(SALU_CYCLE_1) | instskip(SKIP_2) | instid1(VALU_DEP_1)
	s_add_u32 s2, s2, s12
	s_addc_u32 s3, s3, s13
	v_add_co_u32 v1, s9, s2, v15
	v_add_co_ci_u32_e64 v2, null, s3, 0, s9
	s_lshl_b64 s[0:1], s[0:1], 2
	s_add_u32 s8, s10, s8
	s_delay_alu instid0(VALU_DEP_2) | instskip(NEXT) | instid1(VALU_DEP_2)
	v_add_co_u32 v1, vcc_lo, v1, s0
	v_add_co_ci_u32_e32 v2, vcc_lo, s1, v2, vcc_lo
	s_addc_u32 s9, s11, 0
	s_delay_alu instid0(VALU_DEP_2) | instskip(NEXT) | instid1(VALU_DEP_2)
	v_add_co_u32 v3, vcc_lo, v1, s0
	v_add_co_ci_u32_e32 v4, vcc_lo, s1, v2, vcc_lo
	v_add_co_u32 v7, s8, s8, v0
	s_delay_alu instid0(VALU_DEP_3) | instskip(NEXT) | instid1(VALU_DEP_3)
	v_add_co_u32 v5, vcc_lo, v3, s0
	v_add_co_ci_u32_e32 v6, vcc_lo, s1, v4, vcc_lo
	v_add_co_ci_u32_e64 v8, null, s9, 0, s8
	s_delay_alu instid0(VALU_DEP_3) | instskip(NEXT) | instid1(VALU_DEP_3)
	v_add_co_u32 v9, vcc_lo, v5, s0
	v_add_co_ci_u32_e32 v10, vcc_lo, s1, v6, vcc_lo
	s_delay_alu instid0(VALU_DEP_3) | instskip(NEXT) | instid1(VALU_DEP_3)
	v_lshlrev_b64 v[64:65], 2, v[7:8]
	v_add_co_u32 v7, vcc_lo, v9, s0
	s_delay_alu instid0(VALU_DEP_3) | instskip(NEXT) | instid1(VALU_DEP_3)
	v_add_co_ci_u32_e32 v8, vcc_lo, s1, v10, vcc_lo
	v_add_co_u32 v11, vcc_lo, s4, v64
	s_delay_alu instid0(VALU_DEP_4) | instskip(NEXT) | instid1(VALU_DEP_4)
	v_add_co_ci_u32_e32 v12, vcc_lo, s5, v65, vcc_lo
	v_add_co_u32 v13, vcc_lo, v7, s0
	s_delay_alu instid0(VALU_DEP_4)
	v_add_co_ci_u32_e32 v14, vcc_lo, s1, v8, vcc_lo
	global_load_b32 v74, v[11:12], off
	v_add_co_u32 v11, vcc_lo, v13, s0
	v_add_co_ci_u32_e32 v12, vcc_lo, s1, v14, vcc_lo
	s_clause 0x3
	global_load_b32 v0, v15, s[2:3]
	global_load_b32 v1, v[1:2], off
	global_load_b32 v2, v[3:4], off
	global_load_b32 v3, v[5:6], off
	v_add_co_u32 v15, vcc_lo, v11, s0
	v_add_co_ci_u32_e32 v16, vcc_lo, s1, v12, vcc_lo
	global_load_b32 v4, v[9:10], off
	v_add_co_u32 v9, vcc_lo, v15, s0
	v_add_co_ci_u32_e32 v10, vcc_lo, s1, v16, vcc_lo
	global_load_b32 v6, v[13:14], off
	v_add_co_u32 v17, vcc_lo, v9, s0
	v_add_co_ci_u32_e32 v18, vcc_lo, s1, v10, vcc_lo
	global_load_b32 v5, v[7:8], off
	v_add_co_u32 v13, vcc_lo, v17, s0
	v_add_co_ci_u32_e32 v14, vcc_lo, s1, v18, vcc_lo
	global_load_b32 v8, v[15:16], off
	v_add_co_u32 v19, vcc_lo, v13, s0
	v_add_co_ci_u32_e32 v20, vcc_lo, s1, v14, vcc_lo
	global_load_b32 v9, v[9:10], off
	v_add_co_u32 v15, vcc_lo, v19, s0
	v_add_co_ci_u32_e32 v16, vcc_lo, s1, v20, vcc_lo
	global_load_b32 v10, v[17:18], off
	v_add_co_u32 v21, vcc_lo, v15, s0
	v_add_co_ci_u32_e32 v22, vcc_lo, s1, v16, vcc_lo
	global_load_b32 v7, v[11:12], off
	v_add_co_u32 v17, vcc_lo, v21, s0
	v_add_co_ci_u32_e32 v18, vcc_lo, s1, v22, vcc_lo
	global_load_b32 v12, v[19:20], off
	v_add_co_u32 v23, vcc_lo, v17, s0
	v_add_co_ci_u32_e32 v24, vcc_lo, s1, v18, vcc_lo
	global_load_b32 v11, v[13:14], off
	v_add_co_u32 v19, vcc_lo, v23, s0
	v_add_co_ci_u32_e32 v20, vcc_lo, s1, v24, vcc_lo
	global_load_b32 v14, v[21:22], off
	v_add_co_u32 v25, vcc_lo, v19, s0
	v_add_co_ci_u32_e32 v26, vcc_lo, s1, v20, vcc_lo
	global_load_b32 v13, v[15:16], off
	v_add_co_u32 v21, vcc_lo, v25, s0
	v_add_co_ci_u32_e32 v22, vcc_lo, s1, v26, vcc_lo
	global_load_b32 v16, v[23:24], off
	v_add_co_u32 v27, vcc_lo, v21, s0
	v_add_co_ci_u32_e32 v28, vcc_lo, s1, v22, vcc_lo
	global_load_b32 v15, v[17:18], off
	v_add_co_u32 v23, vcc_lo, v27, s0
	v_add_co_ci_u32_e32 v24, vcc_lo, s1, v28, vcc_lo
	global_load_b32 v18, v[25:26], off
	v_add_co_u32 v29, vcc_lo, v23, s0
	v_add_co_ci_u32_e32 v30, vcc_lo, s1, v24, vcc_lo
	global_load_b32 v17, v[19:20], off
	v_add_co_u32 v25, vcc_lo, v29, s0
	v_add_co_ci_u32_e32 v26, vcc_lo, s1, v30, vcc_lo
	global_load_b32 v20, v[27:28], off
	v_add_co_u32 v31, vcc_lo, v25, s0
	v_add_co_ci_u32_e32 v32, vcc_lo, s1, v26, vcc_lo
	global_load_b32 v19, v[21:22], off
	v_add_co_u32 v27, vcc_lo, v31, s0
	v_add_co_ci_u32_e32 v28, vcc_lo, s1, v32, vcc_lo
	global_load_b32 v22, v[29:30], off
	v_add_co_u32 v33, vcc_lo, v27, s0
	v_add_co_ci_u32_e32 v34, vcc_lo, s1, v28, vcc_lo
	global_load_b32 v21, v[23:24], off
	v_add_co_u32 v29, vcc_lo, v33, s0
	v_add_co_ci_u32_e32 v30, vcc_lo, s1, v34, vcc_lo
	global_load_b32 v24, v[31:32], off
	v_add_co_u32 v35, vcc_lo, v29, s0
	v_add_co_ci_u32_e32 v36, vcc_lo, s1, v30, vcc_lo
	global_load_b32 v23, v[25:26], off
	v_add_co_u32 v31, vcc_lo, v35, s0
	v_add_co_ci_u32_e32 v32, vcc_lo, s1, v36, vcc_lo
	global_load_b32 v26, v[33:34], off
	v_add_co_u32 v37, vcc_lo, v31, s0
	v_add_co_ci_u32_e32 v38, vcc_lo, s1, v32, vcc_lo
	global_load_b32 v25, v[27:28], off
	v_add_co_u32 v33, vcc_lo, v37, s0
	v_add_co_ci_u32_e32 v34, vcc_lo, s1, v38, vcc_lo
	global_load_b32 v28, v[35:36], off
	v_add_co_u32 v39, vcc_lo, v33, s0
	v_add_co_ci_u32_e32 v40, vcc_lo, s1, v34, vcc_lo
	global_load_b32 v27, v[29:30], off
	v_add_co_u32 v35, vcc_lo, v39, s0
	v_add_co_ci_u32_e32 v36, vcc_lo, s1, v40, vcc_lo
	global_load_b32 v30, v[37:38], off
	v_add_co_u32 v41, vcc_lo, v35, s0
	v_add_co_ci_u32_e32 v42, vcc_lo, s1, v36, vcc_lo
	global_load_b32 v29, v[31:32], off
	v_add_co_u32 v37, vcc_lo, v41, s0
	v_add_co_ci_u32_e32 v38, vcc_lo, s1, v42, vcc_lo
	global_load_b32 v32, v[39:40], off
	v_add_co_u32 v43, vcc_lo, v37, s0
	v_add_co_ci_u32_e32 v44, vcc_lo, s1, v38, vcc_lo
	global_load_b32 v31, v[33:34], off
	v_add_co_u32 v39, vcc_lo, v43, s0
	v_add_co_ci_u32_e32 v40, vcc_lo, s1, v44, vcc_lo
	global_load_b32 v34, v[41:42], off
	v_add_co_u32 v45, vcc_lo, v39, s0
	v_add_co_ci_u32_e32 v46, vcc_lo, s1, v40, vcc_lo
	global_load_b32 v33, v[35:36], off
	v_add_co_u32 v41, vcc_lo, v45, s0
	v_add_co_ci_u32_e32 v42, vcc_lo, s1, v46, vcc_lo
	global_load_b32 v36, v[43:44], off
	v_add_co_u32 v47, vcc_lo, v41, s0
	v_add_co_ci_u32_e32 v48, vcc_lo, s1, v42, vcc_lo
	global_load_b32 v35, v[37:38], off
	v_add_co_u32 v43, vcc_lo, v47, s0
	v_add_co_ci_u32_e32 v44, vcc_lo, s1, v48, vcc_lo
	global_load_b32 v38, v[45:46], off
	v_add_co_u32 v49, vcc_lo, v43, s0
	v_add_co_ci_u32_e32 v50, vcc_lo, s1, v44, vcc_lo
	global_load_b32 v37, v[39:40], off
	v_add_co_u32 v45, vcc_lo, v49, s0
	v_add_co_ci_u32_e32 v46, vcc_lo, s1, v50, vcc_lo
	global_load_b32 v40, v[47:48], off
	v_add_co_u32 v51, vcc_lo, v45, s0
	v_add_co_ci_u32_e32 v52, vcc_lo, s1, v46, vcc_lo
	global_load_b32 v39, v[41:42], off
	v_add_co_u32 v47, vcc_lo, v51, s0
	v_add_co_ci_u32_e32 v48, vcc_lo, s1, v52, vcc_lo
	global_load_b32 v42, v[49:50], off
	v_add_co_u32 v53, vcc_lo, v47, s0
	v_add_co_ci_u32_e32 v54, vcc_lo, s1, v48, vcc_lo
	global_load_b32 v41, v[43:44], off
	v_add_co_u32 v49, vcc_lo, v53, s0
	v_add_co_ci_u32_e32 v50, vcc_lo, s1, v54, vcc_lo
	global_load_b32 v44, v[51:52], off
	v_add_co_u32 v55, vcc_lo, v49, s0
	v_add_co_ci_u32_e32 v56, vcc_lo, s1, v50, vcc_lo
	global_load_b32 v43, v[45:46], off
	v_add_co_u32 v51, vcc_lo, v55, s0
	v_add_co_ci_u32_e32 v52, vcc_lo, s1, v56, vcc_lo
	global_load_b32 v46, v[53:54], off
	v_add_co_u32 v57, vcc_lo, v51, s0
	v_add_co_ci_u32_e32 v58, vcc_lo, s1, v52, vcc_lo
	global_load_b32 v45, v[47:48], off
	v_add_co_u32 v53, vcc_lo, v57, s0
	v_add_co_ci_u32_e32 v54, vcc_lo, s1, v58, vcc_lo
	global_load_b32 v48, v[55:56], off
	v_add_co_u32 v59, vcc_lo, v53, s0
	v_add_co_ci_u32_e32 v60, vcc_lo, s1, v54, vcc_lo
	global_load_b32 v47, v[49:50], off
	v_add_co_u32 v55, vcc_lo, v59, s0
	v_add_co_ci_u32_e32 v56, vcc_lo, s1, v60, vcc_lo
	global_load_b32 v50, v[57:58], off
	v_add_co_u32 v61, vcc_lo, v55, s0
	v_add_co_ci_u32_e32 v62, vcc_lo, s1, v56, vcc_lo
	global_load_b32 v49, v[51:52], off
	v_add_co_u32 v57, vcc_lo, v61, s0
	v_add_co_ci_u32_e32 v58, vcc_lo, s1, v62, vcc_lo
	global_load_b32 v52, v[59:60], off
	v_add_co_u32 v66, vcc_lo, v57, s0
	v_add_co_ci_u32_e32 v67, vcc_lo, s1, v58, vcc_lo
	global_load_b32 v51, v[53:54], off
	v_add_co_u32 v59, vcc_lo, v66, s0
	v_add_co_ci_u32_e32 v60, vcc_lo, s1, v67, vcc_lo
	global_load_b32 v54, v[61:62], off
	v_add_co_u32 v68, vcc_lo, v59, s0
	v_add_co_ci_u32_e32 v69, vcc_lo, s1, v60, vcc_lo
	global_load_b32 v53, v[55:56], off
	v_add_co_u32 v61, vcc_lo, v68, s0
	v_add_co_ci_u32_e32 v62, vcc_lo, s1, v69, vcc_lo
	global_load_b32 v56, v[66:67], off
	v_add_co_u32 v70, vcc_lo, v61, s0
	v_add_co_ci_u32_e32 v71, vcc_lo, s1, v62, vcc_lo
	global_load_b32 v55, v[57:58], off
	v_add_co_u32 v66, vcc_lo, v70, s0
	v_add_co_ci_u32_e32 v67, vcc_lo, s1, v71, vcc_lo
	global_load_b32 v58, v[68:69], off
	v_add_co_u32 v72, vcc_lo, v66, s0
	v_add_co_ci_u32_e32 v73, vcc_lo, s1, v67, vcc_lo
	global_load_b32 v57, v[59:60], off
	v_add_co_u32 v68, vcc_lo, v72, s0
	v_add_co_ci_u32_e32 v69, vcc_lo, s1, v73, vcc_lo
	global_load_b32 v59, v[61:62], off
	global_load_b32 v60, v[70:71], off
	global_load_b32 v61, v[66:67], off
	global_load_b32 v62, v[72:73], off
	global_load_b32 v63, v[68:69], off
	s_waitcnt vmcnt(60)
	scratch_store_b128 off, v[0:3], off
	s_waitcnt vmcnt(53)
	scratch_store_b128 off, v[4:7], off offset:16
	s_waitcnt vmcnt(51)
	scratch_store_b128 off, v[8:11], off offset:32
	s_waitcnt vmcnt(47)
	scratch_store_b128 off, v[12:15], off offset:48
	s_waitcnt vmcnt(43)
	scratch_store_b128 off, v[16:19], off offset:64
	s_waitcnt vmcnt(39)
	scratch_store_b128 off, v[20:23], off offset:80
	s_waitcnt vmcnt(35)
	scratch_store_b128 off, v[24:27], off offset:96
	s_waitcnt vmcnt(31)
	scratch_store_b128 off, v[28:31], off offset:112
	v_and_b32_e32 v0, 63, v74
	s_waitcnt vmcnt(27)
	scratch_store_b128 off, v[32:35], off offset:128
	s_waitcnt vmcnt(23)
	scratch_store_b128 off, v[36:39], off offset:144
	s_waitcnt vmcnt(19)
	scratch_store_b128 off, v[40:43], off offset:160
	s_waitcnt vmcnt(15)
	scratch_store_b128 off, v[44:47], off offset:176
	v_lshlrev_b32_e32 v0, 2, v0
	s_waitcnt vmcnt(11)
	scratch_store_b128 off, v[48:51], off offset:192
	s_waitcnt vmcnt(7)
	scratch_store_b128 off, v[52:55], off offset:208
	s_waitcnt vmcnt(4)
	scratch_store_b128 off, v[56:59], off offset:224
	s_waitcnt vmcnt(0)
	scratch_store_b128 off, v[60:63], off offset:240
	scratch_load_b32 v2, v0, off
	v_add_co_u32 v0, vcc_lo, s6, v64
	v_add_co_ci_u32_e32 v1, vcc_lo, s7, v65, vcc_lo
	s_waitcnt vmcnt(0)
	global_store_b32 v[0:1], v2, off
	s_endpgm
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel private_array
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_private_segment_fixed_size 260
		.amdhsa_kernarg_size 272
		.amdhsa_user_sgpr_count 15
		.amdhsa_user_sgpr_dispatch_ptr 1
		.amdhsa_user_sgpr_queue_ptr 0
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_dispatch_id 0
		.amdhsa_user_sgpr_private_segment_size 0
		.amdhsa_wavefront_size32 1
		.amdhsa_uses_dynamic_stack 0
		.amdhsa_enable_private_segment 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_workgroup_id_y 0
		.amdhsa_system_sgpr_workgroup_id_z 0
		.amdhsa_system_sgpr_workgroup_info 0
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 75
		.amdhsa_next_free_sgpr 16
		.amdhsa_reserve_vcc 1
		.amdhsa_float_round_mode_32 0
		.amdhsa_float_round_mode_16_64 0
		.amdhsa_float_denorm_mode_32 3
		.amdhsa_float_denorm_mode_16_64 3
		.amdhsa_dx10_clamp 1
		.amdhsa_ieee_mode 1
		.amdhsa_fp16_overflow 0
		.amdhsa_workgroup_processor_mode 1
		.amdhsa_memory_ordered 1
		.amdhsa_forward_progress 0
		.amdhsa_shared_vgpr_count 0
		.amdhsa_exception_fp_ieee_invalid_op 0
		.amdhsa_exception_fp_denorm_src 0
		.amdhsa_exception_fp_ieee_div_zero 0
		.amdhsa_exception_fp_ieee_overflow 0
		.amdhsa_exception_fp_ieee_underflow 0
		.amdhsa_exception_fp_ieee_inexact 0
		.amdhsa_exception_int_div_zero 0
	.end_amdhsa_kernel
	.text
.Lfunc_end1:
	.size	private_array, .Lfunc_end1-private_array
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 1712
; NumSgprs: 18
; NumVgprs: 75
; ScratchSize: 260
; MemoryBound: 1
; FloatMode: 240
; IeeeMode: 1
; LDSByteSize: 0 bytes/workgroup (compile time only)
; SGPRBlocks: 2
; VGPRBlocks: 9
; NumSGPRsForWavesPerEU: 18
; NumVGPRsForWavesPerEU: 75
; Occupancy: 16
; WaveLimiterHint : 1
; COMPUTE_PGM_RSRC2:SCRATCH_EN: 1
; COMPUTE_PGM_RSRC2:USER_SGPR: 15
; COMPUTE_PGM_RSRC2:TRAP_HANDLER: 0
; COMPUTE_PGM_RSRC2:TGID_X_EN: 1
; COMPUTE_PGM_RSRC2:TGID_Y_EN: 0
; COMPUTE_PGM_RSRC2:TGID_Z_EN: 0
; COMPUTE_PGM_RSRC2:TIDIG_COMP_CNT: 0
	.text
	.protected	hfma                    ; -- Begin function hfma
	.globl	hfma
	.p2align	8
	.type	hfma,@function
hfma:                                   ; @hfma
; %bb.0:
	s_load_b32 s0, s[0:1], 0x4
	s_clause 0x1
	s_load_b128 s[4:7], s[2:3], 0x0
	s_load_b32 s8, s[2:3], 0x1c
	s_mov_b32 s9, 0
	v_lshlrev_b32_e32 v0, 2, v0
	s_waitcnt lgkmcnt(0)
	s_and_b32 s1, s0, 0xffff
	s_load_b32 s0, s[2:3], 0x10
	s_mul_hi_u32 s3, s1, s15
	s_mul_i32 s2, s1, s15
	s_delay_alu instid0(SALU_CYCLE_1) | instskip(NEXT) | instid1(SALU_CYCLE_1)
	s_lshl_b64 s[2:3], s[2:3], 2
	s_add_u32 s1, s4, s2
	s_addc_u32 s4, s5, s3
	s_lshl_b64 s[2:3], s[8:9], 2
	s_delay_alu instid0(SALU_CYCLE_1) | instskip(SKIP_3) | instid1(VALU_DEP_1)
	s_add_u32 s2, s2, s1
	s_addc_u32 s3, s3, s4
	global_load_b32 v2, v0, s[2:3]
	v_add_co_u32 v0, s1, s2, v0
	v_add_co_ci_u32_e64 v1, null, s3, 0, s1
	s_waitcnt lgkmcnt(0)
	s_cmp_lt_i32 s0, 1
	s_cbranch_scc1 .LBB2_2
.LBB2_1:                                ; =>This Inner Loop Header: Depth=1
	s_load_b32 s1, s[6:7], 0x0
	s_add_i32 s0, s0, -1
	s_add_u32 s6, s6, 4
	s_addc_u32 s7, s7, 0
	s_cmp_eq_u32 s0, 0
	s_waitcnt vmcnt(0) lgkmcnt(0)
	v_pk_fma_f16 v2, s1, v2, 0x38003c00
	s_cbranch_scc0 .LBB2_1
.LBB2_2:
	s_waitcnt vmcnt(0)
	global_store_b32 v[0:1], v2, off
	s_nop 0
	s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)
	s_endpgm
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel hfma
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_kernarg_size 280
		.amdhsa_user_sgpr_count 15
		.amdhsa_user_sgpr_dispatch_ptr 1
		.amdhsa_user_sgpr_queue_ptr 0
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_dispatch_id 0
		.amdhsa_user_sgpr_private_segment_size 0
		.amdhsa_wavefront_size32 1
		.amdhsa_uses_dynamic_stack 0
		.amdhsa_enable_private_segment 0
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_workgroup_id_y 0
		.amdhsa_system_sgpr_workgroup_id_z 0
		.amdhsa_system_sgpr_workgroup_info 0
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 3
		.amdhsa_next_free_sgpr 16
		.amdhsa_reserve_vcc 0
		.amdhsa_float_round_mode_32 0
		.amdhsa_float_round_mode_16_64 0
		.amdhsa_float_denorm_mode_32 3
		.amdhsa_float_denorm_mode_16_64 3
		.amdhsa_dx10_clamp 1
		.amdhsa_ieee_mode 1
		.amdhsa_fp16_overflow 0
		.amdhsa_workgroup_processor_mode 1
		.amdhsa_memory_ordered 1
		.amdhsa_forward_progress 0
		.amdhsa_shared_vgpr_count 0
		.amdhsa_exception_fp_ieee_invalid_op 0
		.amdhsa_exception_fp_denorm_src 0
		.amdhsa_exception_fp_ieee_div_zero 0
		.amdhsa_exception_fp_ieee_overflow 0
		.amdhsa_exception_fp_ieee_underflow 0
		.amdhsa_exception_fp_ieee_inexact 0
		.amdhsa_exception_int_div_zero 0
	.end_amdhsa_kernel
	.text
.Lfunc_end2:
	.size	hfma, .Lfunc_end2-hfma
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 200
; NumSgprs: 16
; NumVgprs: 3
; ScratchSize: 0
; MemoryBound: 0
; FloatMode: 240
; IeeeMode: 1
; LDSByteSize: 0 bytes/workgroup (compile time only)
; SGPRBlocks: 1
; VGPRBlocks: 0
; NumSGPRsForWavesPerEU: 16
; NumVGPRsForWavesPerEU: 3
; Occupancy: 16
; WaveLimiterHint : 0
; COMPUTE_PGM_RSRC2:SCRATCH_EN: 0
; COMPUTE_PGM_RSRC2:USER_SGPR: 15
; COMPUTE_PGM_RSRC2:TRAP_HANDLER: 0
; COMPUTE_PGM_RSRC2:TGID_X_EN: 1
; COMPUTE_PGM_RSRC2:TGID_Y_EN: 0
; COMPUTE_PGM_RSRC2:TGID_Z_EN: 0
; COMPUTE_PGM_RSRC2:TIDIG_COMP_CNT: 0
	.text
	.p2alignl 7, 3214868480
	.fill 96, 4, 3214868480
	.hidden	__oclc_ABI_version              ; @__oclc_ABI_version
	.type	__oclc_ABI_version,@object
	.section	.rodata,"a",@progbits
	.weak	__oclc_ABI_version
	.p2align	2, 0x0
__oclc_ABI_version:
	.long	500                             ; 0x1f4
	.size	__oclc_ABI_version, 4

	.ident	"Debian clang version 19.1.7 (3~deb12u1)"
	.ident	"Debian clang version 15.0.6"
	.section	".note.GNU-stack","",@progbits
	.addrsig
	.amdgpu_metadata
---
amdhsa.kernels:
  - .args:
      - .address_space:  global
        .is_const:       true
        .offset:         0
        .size:           8
        .type_name:      'float4*'
        .value_kind:     global_buffer
      - .address_space:  global
        .is_const:       true
        .offset:         8
        .size:           8
        .type_name:      'float4*'
        .value_kind:     global_buffer
      - .address_space:  global
        .offset:         16
        .size:           8
        .type_name:      'float*'
        .value_kind:     global_buffer
      - .offset:         24
        .size:           4
        .type_name:      int
        .value_kind:     by_value
      - .offset:         32
        .size:           4
        .value_kind:     hidden_block_count_x
      - .offset:         36
        .size:           4
        .value_kind:     hidden_block_count_y
      - .offset:         40
        .size:           4
        .value_kind:     hidden_block_count_z
      - .offset:         44
        .size:           2
        .value_kind:     hidden_group_size_x
      - .offset:         46
        .size:           2
        .value_kind:     hidden_group_size_y
      - .offset:         48
        .size:           2
        .value_kind:     hidden_group_size_z
      - .offset:         50
        .size:           2
        .value_kind:     hidden_remainder_x
      - .offset:         52
        .size:           2
        .value_kind:     hidden_remainder_y
      - .offset:         54
        .size:           2
        .value_kind:     hidden_remainder_z
      - .offset:         72
        .size:           8
        .value_kind:     hidden_global_offset_x
      - .offset:         80
        .size:           8
        .value_kind:     hidden_global_offset_y
      - .offset:         88
        .size:           8
        .value_kind:     hidden_global_offset_z
      - .offset:         96
        .size:           2
        .value_kind:     hidden_grid_dims
    .group_segment_fixed_size: 1024
    .kernarg_segment_align: 8
    .kernarg_segment_size: 288
    .language:       OpenCL C
    .language_version:
      - 2
      - 0
    .max_flat_workgroup_size: 64
    .name:           dot_local
    .private_segment_fixed_size: 0
    .reqd_workgroup_size:
      - 64
      - 1
      - 1
    .sgpr_count:     18
    .sgpr_spill_count: 0
    .symbol:         dot_local.kd
    .uses_dynamic_stack: false
    .vgpr_count:     44
    .vgpr_spill_count: 0
    .wavefront_size: 32
    .workgroup_processor_mode: 1
  - .args:
      - .address_space:  global
        .is_const:       true
        .offset:         0
        .size:           8
        .type_name:      'int*'
        .value_kind:     global_buffer
      - .address_space:  global
        .offset:         8
        .size:           8
        .type_name:      'float*'
        .value_kind:     global_buffer
      - .offset:         16
        .size:           4
        .value_kind:     hidden_block_count_x
      - .offset:         20
        .size:           4
        .value_kind:     hidden_block_count_y
      - .offset:         24
        .size:           4
        .value_kind:     hidden_block_count_z
      - .offset:         28
        .size:           2
        .value_kind:     hidden_group_size_x
      - .offset:         30
        .size:           2
        .value_kind:     hidden_group_size_y
      - .offset:         32
        .size:           2
        .value_kind:     hidden_group_size_z
      - .offset:         34
        .size:           2
        .value_kind:     hidden_remainder_x
      - .offset:         36
        .size:           2
        .value_kind:     hidden_remainder_y
      - .offset:         38
        .size:           2
        .value_kind:     hidden_remainder_z
      - .offset:         56
        .size:           8
        .value_kind:     hidden_global_offset_x
      - .offset:         64
        .size:           8
        .value_kind:     hidden_global_offset_y
      - .offset:         72
        .size:           8
        .value_kind:     hidden_global_offset_z
      - .offset:         80
        .size:           2
        .value_kind:     hidden_grid_dims
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 272
    .language:       OpenCL C
    .language_version:
      - 2
      - 0
    .max_flat_workgroup_size: 256
    .name:           private_array
    .private_segment_fixed_size: 260
    .sgpr_count:     18
    .sgpr_spill_count: 0
    .symbol:         private_array.kd
    .uses_dynamic_stack: false
    .vgpr_count:     75
    .vgpr_spill_count: 0
    .wavefront_size: 32
    .workgroup_processor_mode: 1
  - .args:
      - .address_space:  global
        .offset:         0
        .size:           8
        .type_name:      'half2*'
        .value_kind:     global_buffer
      - .address_space:  global
        .is_const:       true
        .offset:         8
        .size:           8
        .type_name:      'half2*'
        .value_kind:     global_buffer
      - .offset:         16
        .size:           4
        .type_name:      int
        .value_kind:     by_value
      - .offset:         24
        .size:           4
        .value_kind:     hidden_block_count_x
      - .offset:         28
        .size:           4
        .value_kind:     hidden_block_count_y
      - .offset:         32
        .size:           4
        .value_kind:     hidden_block_count_z
      - .offset:         36
        .size:           2
        .value_kind:     hidden_group_size_x
      - .offset:         38
        .size:           2
        .value_kind:     hidden_group_size_y
      - .offset:         40
        .size:           2
        .value_kind:     hidden_group_size_z
      - .offset:         42
        .size:           2
        .value_kind:     hidden_remainder_x
      - .offset:         44
        .size:           2
        .value_kind:     hidden_remainder_y
      - .offset:         46
        .size:           2
        .value_kind:     hidden_remainder_z
      - .offset:         64
        .size:           8
        .value_kind:     hidden_global_offset_x
      - .offset:         72
        .size:           8
        .value_kind:     hidden_global_offset_y
      - .offset:         80
        .size:           8
        .value_kind:     hidden_global_offset_z
      - .offset:         88
        .size:           2
        .value_kind:     hidden_grid_dims
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 280
    .language:       OpenCL C
    .language_version:
      - 2
      - 0
    .max_flat_workgroup_size: 256
    .name:           hfma
    .private_segment_fixed_size: 0
    .sgpr_count:     16
    .sgpr_spill_count: 0
    .symbol:         hfma.kd
    .uses_dynamic_stack: false
    .vgpr_count:     3
    .vgpr_spill_count: 0
    .wavefront_size: 32
    .workgroup_processor_mode: 1
amdhsa.target:   amdgcn-amd-amdhsa--gfx1100
amdhsa.version:
  - 1
  - 2
...

	.end_amdgpu_metadata
